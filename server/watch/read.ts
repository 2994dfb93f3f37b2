// One read of a system's lists, as the portal's browser reads them (the same requests, so the
// answers can be served to browsers as they are): Reflexio's newest 500 calls, Vertesia's whole
// project, Bilby's conversation pages and the conversations with questions waiting — re-reading a
// conversation only when its list entry changed since the last read.
import { bilbyUnit, record, reflexioUnit, type SystemKind, type Unit, vertesiaUnit } from './wire';

/** A GET to the system at `path` (as the system sees it: `/api/…`), with the server's key. */
export type SystemFetch = (path: string, headers?: Record<string, string>) => Promise<Response>;

/** The list the browser asks Reflexio for, and the most it returns (no paging). */
export const REFLEXIO_LIMIT = 500;
export const REFLEXIO_LIST = `/api/pending_tool_calls?limit=${REFLEXIO_LIMIT}`;
export const REFLEXIO_PENDING_LIST = `/api/pending_tool_calls?status=pending&limit=${REFLEXIO_LIMIT}`;
export const VERTESIA_LIST = '/api/v1/pending-asks';
export const BILBY_LIST = '/api/v1/conversations';
/** As the browser's Bilby adapter: at most 50 pages; conversations read 4 at a time. */
export const BILBY_MAX_PAGES = 50;
const BILBY_DETAIL_CONCURRENCY = 4;

export interface ListRead {
  /** Every record read, each once. */
  units: Unit[];
  /** The unfiltered list's ids, in the system's order. */
  order: string[];
  /** Reflexio, when its unfiltered list was cut at 500: the pending list's ids, in order. */
  pendingOrder: string[] | null;
  /** Not everything could be read (Reflexio's 500, Bilby's 50 pages). */
  truncated: boolean;
  /** Requests this read sent to the system. */
  requests: number;
  /** The system's clock minus this server's, from the first answer's `Date` header (0 without). */
  clockOffsetMs: number;
}

export class ReadError extends Error {
  override readonly name = 'ReadError';
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

/** The system's clock minus this server's, from an answer's `Date` header (±1 s: whole seconds). */
function clockOffset(response: Response): number {
  const date = Date.parse(response.headers.get('date') ?? '');
  return Number.isNaN(date) ? 0 : date - Date.now();
}

async function getJson(
  fetch: SystemFetch,
  path: string,
  headers?: Record<string, string>,
): Promise<{ body: unknown; clockOffsetMs: number }> {
  let response: Response;
  try {
    response = await fetch(path, headers);
  } catch (error) {
    throw new ReadError(
      `could not be reached (${error instanceof Error ? error.message : String(error)})`,
      null,
    );
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new ReadError(
      `answered HTTP ${response.status} to GET ${path.split('?')[0]}`,
      response.status,
    );
  }
  try {
    return { body: (await response.json()) as unknown, clockOffsetMs: clockOffset(response) };
  } catch {
    throw new ReadError(`answered GET ${path.split('?')[0]} with something other than JSON`, 200);
  }
}

function listOf(body: unknown, field: string, path: string): unknown[] {
  const list = record(body)?.[field];
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new ReadError(`GET ${path}: "${field}" is not a list`, 200);
  return list;
}

async function readReflexio(fetch: SystemFetch): Promise<ListRead> {
  const { body, clockOffsetMs } = await getJson(fetch, REFLEXIO_LIST);
  const units = new Map<string, Unit>();
  const order: string[] = [];
  for (const item of listOf(body, 'pending_tool_calls', REFLEXIO_LIST)) {
    const unit = reflexioUnit(item);
    if (!unit || units.has(unit.id)) continue;
    units.set(unit.id, unit);
    order.push(unit.id);
  }
  const cut = listOf(body, 'pending_tool_calls', REFLEXIO_LIST).length >= REFLEXIO_LIMIT;
  let pendingOrder: string[] | null = null;
  if (cut) {
    // The newest 500 may hide older questions still waiting: the pending list is read as well.
    const { body: pending } = await getJson(fetch, REFLEXIO_PENDING_LIST);
    pendingOrder = [];
    for (const item of listOf(pending, 'pending_tool_calls', REFLEXIO_PENDING_LIST)) {
      const unit = reflexioUnit(item);
      if (!unit) continue;
      if (!units.has(unit.id)) units.set(unit.id, unit);
      pendingOrder.push(unit.id);
    }
  }
  return {
    units: [...units.values()],
    order,
    pendingOrder,
    truncated: cut && (pendingOrder?.length ?? 0) >= REFLEXIO_LIMIT,
    requests: cut ? 2 : 1,
    clockOffsetMs,
  };
}

async function readVertesia(fetch: SystemFetch, apiVersion: string): Promise<ListRead> {
  const { body, clockOffsetMs } = await getJson(fetch, VERTESIA_LIST, {
    'x-api-version': apiVersion,
  });
  const units = new Map<string, Unit>();
  for (const item of listOf(body, 'asks', VERTESIA_LIST)) {
    const unit = vertesiaUnit(item);
    if (unit && !units.has(unit.id)) units.set(unit.id, unit);
  }
  return {
    units: [...units.values()],
    order: [...units.keys()],
    pendingOrder: null,
    truncated: false,
    requests: 1,
    clockOffsetMs,
  };
}

/** What the last read kept of a Bilby conversation: its list entry and its detail. */
export interface KnownConversation {
  summary: string | undefined;
  unit: Unit;
}

function query(organizationId: string | undefined, cursor: string | null): string {
  const params = new URLSearchParams();
  if (organizationId) params.set('organizationId', organizationId);
  if (cursor) params.set('cursor', cursor);
  const text = params.toString();
  return text ? `?${text}` : '';
}

function running(known: KnownConversation): boolean {
  try {
    return record(JSON.parse(known.unit.wire))?.status === 'running';
  } catch {
    return true;
  }
}

/** The fields of a list entry that say the conversation changed (its detail is read again). */
function entryKey(entry: Record<string, unknown>): string {
  return JSON.stringify([entry.updatedAt ?? null, entry.pendingQuestionCount ?? null]);
}

async function readBilby(
  fetch: SystemFetch,
  organizationId: string | undefined,
  known: ReadonlyMap<string, KnownConversation>,
): Promise<ListRead> {
  let requests = 0;
  const entries: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  let pages = 0;
  let clockOffsetMs = 0;
  do {
    const path: string = `${BILBY_LIST}${query(organizationId, cursor)}`;
    const read = await getJson(fetch, path);
    const body = read.body;
    if (pages === 0) clockOffsetMs = read.clockOffsetMs;
    requests += 1;
    for (const item of listOf(body, 'conversations', BILBY_LIST)) {
      const entry = record(item);
      if (entry && typeof entry.id === 'string' && entry.id) entries.push(entry);
    }
    const next = record(body)?.nextCursor;
    cursor = typeof next === 'string' && next ? next : null;
    pages += 1;
  } while (cursor !== null && pages < BILBY_MAX_PAGES);

  const waiting = entries.filter(
    (entry) => typeof entry.pendingQuestionCount === 'number' && entry.pendingQuestionCount > 0,
  );
  const units: (Unit | null)[] = waiting.map(() => null);
  const toRead: number[] = [];
  waiting.forEach((entry, index) => {
    const before = known.get(entry.id as string);
    const summary = JSON.stringify(entry);
    const beforeEntry = before?.summary ? record(JSON.parse(before.summary)) : null;
    // A turn running ends with no change to the list entry: such a conversation is read until
    // it is idle (a few seconds after an answer), so its questions do not stay "busy".
    if (before && beforeEntry && entryKey(beforeEntry) === entryKey(entry) && !running(before)) {
      units[index] = { ...before.unit, summary };
    } else toRead.push(index);
  });
  let next = 0;
  const worker = async () => {
    while (next < toRead.length) {
      const index = toRead[next++] as number;
      const entry = waiting[index] as Record<string, unknown>;
      const id = entry.id as string;
      try {
        const { body: detail } = await getJson(
          fetch,
          `${BILBY_LIST}/${encodeURIComponent(id)}${query(organizationId, null)}`,
        );
        units[index] = bilbyUnit(detail, entry);
      } catch (error) {
        // Gone between the list and now: nothing waits there.
        if (error instanceof ReadError && error.status === 404) units[index] = null;
        else throw error;
      } finally {
        requests += 1;
      }
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(BILBY_DETAIL_CONCURRENCY, toRead.length) }, worker),
  );
  const read = units.filter((unit): unit is Unit => unit !== null);
  return {
    units: read,
    order: read.map((unit) => unit.id),
    pendingOrder: null,
    truncated: cursor !== null,
    requests,
    clockOffsetMs,
  };
}

export interface SystemReadOptions {
  kind: SystemKind;
  fetch: SystemFetch;
  /** Vertesia's API version header. */
  apiVersion?: string;
  /** Bilby's organization, when the key covers several. */
  organizationId?: string;
}

/** Reads a system's lists once. `known`: Bilby's conversations as the last read left them. */
export function readSystem(
  options: SystemReadOptions,
  known: ReadonlyMap<string, KnownConversation> = new Map(),
): Promise<ListRead> {
  switch (options.kind) {
    case 'reflexio':
      return readReflexio(options.fetch);
    case 'vertesia':
      return readVertesia(options.fetch, options.apiVersion ?? '');
    case 'bilby':
      return readBilby(options.fetch, options.organizationId, known);
  }
}

/**
 * One record read again after a write through the portal (its copy must not show it as it was):
 * the record, or null when the system no longer has it (or, for Bilby, nothing waits there).
 * `summary`: a Bilby conversation's list entry as the copy had it; its count and time follow the
 * detail until the next whole read.
 */
export async function readUnit(
  options: SystemReadOptions,
  unitId: string,
  summary: string | null,
): Promise<Unit | null> {
  const id = encodeURIComponent(unitId);
  try {
    switch (options.kind) {
      case 'reflexio':
        return reflexioUnit((await getJson(options.fetch, `/api/pending_tool_calls/${id}`)).body);
      case 'vertesia':
        return vertesiaUnit(
          (
            await getJson(options.fetch, `${VERTESIA_LIST}/${id}`, {
              'x-api-version': options.apiVersion ?? '',
            })
          ).body,
        );
      case 'bilby': {
        const { body } = await getJson(
          options.fetch,
          `${BILBY_LIST}/${id}${query(options.organizationId, null)}`,
        );
        const detail = record(body);
        const calls = Array.isArray(detail?.pendingQuestions) ? detail.pendingQuestions : [];
        if (!detail || calls.length === 0) return null;
        const before = summary ? record(JSON.parse(summary)) : null;
        const entry = {
          ...(before ?? { id: unitId, title: detail.title ?? null }),
          updatedAt: detail.updatedAt ?? before?.updatedAt ?? null,
          pendingQuestionCount: calls.length,
        };
        return bilbyUnit(detail, entry);
      }
    }
  } catch (error) {
    if (error instanceof ReadError && error.status === 404) return null;
    throw error;
  }
}
