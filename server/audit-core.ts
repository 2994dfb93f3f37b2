// The audit trail without its database: which write is which action (audit-actions.ts), what is
// kept of an answer (audit-answer.ts), the attempt written before a forward and its outcome after,
// and the read API (`me`, `activity` by cursor, its CSV). No Node built-ins: the portal server runs
// it over PostgreSQL (server/audit.ts), the static demo's Service Worker over a trail kept in the
// browser (memoryTrail below; demo/portal.ts).
import { Hono } from 'hono';
import { classifyAction, MAX_QUESTION_ID_LENGTH } from './audit-actions';
import {
  type AnswerMode,
  DEFAULT_ANSWER_MAX_BYTES,
  type KeptAs,
  keepAnswer,
  keptRefusal,
} from './audit-answer';
import { DEFAULT_WRITES_PER_MINUTE, ReadsBusy, readGate, writeRate } from './audit-limits';
import { type IdentityConfig, identify, type Reviewer, withoutIdentity } from './identity';

export type { AnswerMode } from './audit-answer';

/** The actions the trail knows, as the server names them. */
export const auditActions = [
  'answer',
  'edit',
  'not-applicable',
  'cancel',
  'resolve-json',
  'claim',
  'release',
] as const;
export type AuditAction = (typeof auditActions)[number];

/** What the server records before it forwards an action. */
export interface AuditAttempt {
  requestId: string;
  reviewer: string;
  reviewerName: string | null;
  /** Named in the browser (no REVIEWER_HEADER), not by an SSO proxy: anyone could type it. */
  selfNamed?: boolean;
  sourceId: string;
  sourceKind: string;
  questionId: string;
  action: AuditAction;
  /** The answer or result sent, as AUDIT_ANSWERS keeps it (bounded, its HMAC, or null). */
  answer: string | null;
  /** How it is kept; `none` for actions that send no answer. */
  answerMode: KeptAs | AnswerMode;
  /** Size and SHA-256 of the whole answer sent (kept in full only). */
  answerBytes?: number | null;
  answerSha256?: string | null;
  /** Set by tests and the bench; the database's clock otherwise. */
  at?: Date;
}

/** One entry as the read API returns it: the attempt with its outcome, if one was recorded. */
export interface AuditEntry {
  id: number;
  at: string;
  requestId: string;
  reviewer: string;
  reviewerName: string | null;
  /** True for a name typed in the browser, false for the SSO proxy's; null where not recorded. */
  selfNamed: boolean | null;
  sourceId: string;
  sourceKind: string;
  questionId: string;
  action: string;
  answer: string | null;
  answerMode: string;
  /** Size in UTF-8 bytes and SHA-256 of the whole answer sent (null unless kept in full). */
  answerBytes: number | null;
  answerSha256: string | null;
  /** The upstream's HTTP status; null when no outcome was recorded (see docs/audit.md). */
  status: number | null;
  detail: string | null;
}

export interface AuditFilter {
  sourceId?: string;
  /** The systems' question ids (one question, or each member of a look-alike group). */
  questionIds?: string[];
  reviewer?: string;
  action?: string;
  /** ISO times, inclusive from, exclusive to. */
  from?: string;
  to?: string;
  /** Case-insensitive text in the reviewer, question id, name or the answer's first 500 characters. */
  search?: string;
}

export interface AuditOutcome {
  requestId: string;
  status: number;
  detail: string | null;
}

export interface AuditPage {
  entries: AuditEntry[];
  nextCursor: number | null;
}

/** Where a trail is kept: PostgreSQL (server/audit.ts) or the browser (memoryTrail). */
export interface TrailStore {
  insertAttempts(attempts: AuditAttempt[]): Promise<void>;
  /** The first outcome of a request counts; a second is ignored. */
  insertOutcome(outcome: AuditOutcome): Promise<void>;
  /** Newest first, `limit` at a time; `nextCursor` continues after the last one, null at the end. */
  listEntries(
    filter: AuditFilter,
    page: { cursor: number | null; limit: number },
  ): Promise<AuditPage>;
}

export interface AuditCoreOptions {
  trail: TrailStore;
  identity: IdentityConfig;
  /** AUDIT_ANSWERS: keep the answer sent, its HMAC, or nothing (default full). */
  answers?: AnswerMode;
  /** AUDIT_ANSWER_MAX_BYTES: how much of an answer `full` keeps (default 4096). */
  answerMaxBytes?: number;
  /** The HMAC key of `hash` (the server keeps one per deployment in its database). */
  hashKey?: () => Promise<Uint8Array<ArrayBuffer>>;
  /** AUDIT_WRITES_PER_MINUTE: entries one reviewer may add a minute (default 600). */
  writesPerMinute?: number;
  log?: (line: string) => void;
  /** After a system accepted an action: its questions (the team's claims on them go). */
  onAccepted?: (sourceId: string, questionIds: string[], reviewer: string) => Promise<void>;
  /** Tests: an error thrown instead of writing the attempt. */
  failWrites?: () => Error | null;
  now?: () => number;
  /** Resolves on the event loop's next task: reads of the trail let other work in between. */
  nextTask?: () => Promise<void>;
}

/** One write on its way to a system, as the portal server's forward sees it. */
export interface ForwardCall {
  request: Request;
  body: Uint8Array | null;
  source: { id: string; kind: string };
  /** The path the system sees, e.g. `/api/pending_tool_calls/x/resolve`. */
  targetPath: string;
}

export type Send = (request: Request) => Promise<Response>;

/** The hook portal.ts runs every forward through (see PortalOptions.around). */
export type ForwardHook = (call: ForwardCall, send: Send) => Promise<Response>;

export interface Audit {
  around: ForwardHook;
  /** `/portal-api/…` (the path under the portal's base): who am I, the trail, its CSV. */
  api: (request: Request, innerPath: string) => Promise<Response>;
}

export const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MAX = 200;
const CSV_MAX_ROWS = 100_000;
/** How much of an answer the text search reads (migration 4's index holds no more). */
export const SEARCHED_ANSWER_CHARS = 500;
const CSV_PAGE = 500;
/** A Bilby batch is one write of several answers; more than this in one is no reviewer's. */
const MAX_ACTIONS_PER_WRITE = 500;
/** Text the trail's columns cannot hold (PostgreSQL's text has no NUL). */
const NUL = '\u0000';

function parseBody(body: Uint8Array | null): unknown {
  if (!body || body.byteLength === 0) return null;
  try {
    return JSON.parse(new TextDecoder().decode(body));
  } catch {
    return null;
  }
}

function jsonResponse(status: number, value: unknown, headers?: Record<string, string>) {
  return new Response(JSON.stringify(value), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}

/** The upstream's own words on a refusal (its error body, never a success's). */
async function refusalBody(response: Response): Promise<string | null> {
  if (response.status < 400) return null;
  try {
    // Only the start is kept: a huge error body is not read whole.
    const reader = response.clone().body?.getReader();
    if (!reader) return null;
    const { value } = await reader.read();
    // Not awaited: a branch of a tee'd body settles its cancel only once the other one goes too.
    reader.cancel().catch(() => {});
    return value ? new TextDecoder().decode(value.subarray(0, 2048)) : null;
  } catch {
    return null;
  }
}

export function message(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown error';
}

/** Said in an entry's detail when the reviewer's browser went before the system answered. */
export const CLIENT_LEFT = 'client left before the answer';

/** Why the attempts cannot be kept as they are (a 400 names it), or null. */
function unstorable(attempts: AuditAttempt[]): string | null {
  for (const attempt of attempts) {
    if (attempt.questionId.length > MAX_QUESTION_ID_LENGTH) {
      return `Not sent: a question id longer than ${MAX_QUESTION_ID_LENGTH} characters is not one the systems give.`;
    }
    if (attempt.questionId.includes(NUL)) return 'Not sent: the question id holds a NUL character.';
    if (attempt.answer?.includes(NUL)) {
      return 'Not sent: the answer holds a NUL character (U+0000), which the audit trail cannot keep. Remove it and send again.';
    }
    if (attempt.reviewer.includes(NUL) || attempt.reviewerName?.includes(NUL)) {
      return "Not sent: the reviewer's name holds a NUL character; name yourself again and send.";
    }
  }
  return null;
}

export function createAuditCore(options: AuditCoreOptions): Audit {
  const { trail, identity } = options;
  const mode = options.answers ?? 'full';
  const maxBytes = options.answerMaxBytes ?? DEFAULT_ANSWER_MAX_BYTES;
  const log = options.log ?? ((line: string) => console.error(line));
  const rate = writeRate(options.writesPerMinute ?? DEFAULT_WRITES_PER_MINUTE, options.now);
  const read = readGate({ running: 2, waiting: 6, nextTask: options.nextTask });

  const refuse = (call: ForwardCall, status: number, detail: string, headers = {}) => {
    log(`[audit] refused ${call.request.method} ${call.targetPath}: ${status}`);
    return jsonResponse(status, { detail }, headers);
  };

  const around: ForwardHook = async (call, send) => {
    const request = withoutIdentity(call.request, identity);
    const isWrite = !['GET', 'HEAD', 'OPTIONS'].includes(call.request.method.toUpperCase());
    const underApi = call.targetPath === '/api' || call.targetPath.startsWith('/api/');
    if (!isWrite) return send(request);
    // Every write needs the reviewer, the mock's control routes (`/__mock/…`) included.
    const reviewer = identify(call.request.headers, identity);
    if (reviewer instanceof Response) return reviewer;
    if (!underApi) return send(request);
    const classified = classifyAction(
      call.source.kind,
      call.request.method,
      call.targetPath,
      parseBody(call.body),
    );
    if ('refused' in classified) return refuse(call, 400, classified.refused);
    const { actions } = classified;
    if (actions.length > MAX_ACTIONS_PER_WRITE) {
      return refuse(call, 400, `Not sent: at most ${MAX_ACTIONS_PER_WRITE} answers in one send.`);
    }

    const requestId = globalThis.crypto.randomUUID();
    let attempts: AuditAttempt[];
    try {
      const hashKey = mode === 'hash' && options.hashKey ? await options.hashKey() : null;
      attempts = await Promise.all(
        actions.map(async (action) => ({
          requestId,
          reviewer: reviewer.id,
          reviewerName: reviewer.name,
          selfNamed: reviewer.from === 'browser',
          sourceId: call.source.id,
          sourceKind: call.source.kind,
          questionId: action.questionId,
          action: action.action,
          ...(await keepAnswer(action.answer, mode, { maxBytes, hashKey })),
        })),
      );
    } catch (error) {
      return notRecorded(call, error);
    }
    const problem = unstorable(attempts);
    if (problem) return refuse(call, 400, problem);
    const wait = rate(reviewer.id, attempts.length);
    if (wait > 0) {
      return refuse(
        call,
        429,
        `Not sent: more actions than the portal records for one reviewer in a minute. Your answer is still in the form; send it again in ${wait} seconds.`,
        { 'retry-after': String(wait) },
      );
    }
    try {
      const failure = options.failWrites?.();
      if (failure) throw failure;
      await trail.insertAttempts(attempts);
    } catch (error) {
      return notRecorded(call, error);
    }

    let response: Response;
    try {
      response = await send(request);
    } catch (error) {
      await recordOutcome(requestId, 0, message(error));
      throw error;
    }
    const refusal = keptRefusal(response.status, await refusalBody(response), mode);
    // The reviewer's browser went while the system was answering: what the system did is recorded
    // all the same, and says so (their History shows it once they are back).
    const left = call.request.signal.aborted;
    await recordOutcome(
      requestId,
      response.status,
      left ? `${CLIENT_LEFT}${refusal ? `; ${refusal}` : ''}` : refusal,
    );
    if (response.status < 400 && options.onAccepted) {
      await options.onAccepted(
        call.source.id,
        actions.map((action) => action.questionId),
        reviewer.id,
      );
    }
    const headers = new Headers(response.headers);
    headers.set('x-audit-request-id', requestId);
    return new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };

  function notRecorded(call: ForwardCall, error: unknown) {
    log(`[audit] could not record ${call.request.method} ${call.targetPath}: ${message(error)}`);
    return jsonResponse(503, {
      detail:
        'Not sent: the portal could not write its audit trail, so the action was not passed on. Your answer is still in the form; try again in a moment, or tell whoever runs the portal.',
    });
  }

  async function recordOutcome(requestId: string, status: number, detail: string | null) {
    // The attempt is already in the trail: a lost outcome leaves it "outcome unknown", never lost.
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await trail.insertOutcome({ requestId, status, detail });
        return;
      } catch (error) {
        if (attempt === 1)
          log(`[audit] could not record the outcome of ${requestId}: ${message(error)}`);
      }
    }
  }

  const app = new Hono();
  const signedIn = (request: Request): Reviewer | Response => identify(request.headers, identity);
  const unreadable = (error: unknown) => {
    if (error instanceof ReadsBusy) {
      return jsonResponse(
        503,
        { detail: 'The audit trail is busy answering other searches: try again in a few seconds.' },
        { 'retry-after': '2' },
      );
    }
    log(`[audit] could not read the trail: ${message(error)}`);
    return jsonResponse(503, {
      detail: /statement timeout/i.test(message(error))
        ? 'The search took too long: narrow it (a reviewer, an action or a time range) and try again.'
        : 'The audit trail could not be read: its database is unavailable.',
    });
  };
  const listed = (filter: AuditFilter, page: { cursor: number | null; limit: number }) =>
    read(() => trail.listEntries(filter, page));

  app.get('/portal-api/me', (c) => {
    const reviewer = signedIn(c.req.raw);
    if (reviewer instanceof Response) return reviewer;
    return jsonResponse(200, { reviewer, identity: identity.header ? 'sso' : 'browser' });
  });

  app.get('/portal-api/activity', async (c) => {
    const reviewer = signedIn(c.req.raw);
    if (reviewer instanceof Response) return reviewer;
    const parsed = parseQuery(new URL(c.req.url).searchParams);
    if ('error' in parsed) return jsonResponse(400, { detail: parsed.error });
    try {
      return jsonResponse(200, await listed(parsed.filter, parsed.page));
    } catch (error) {
      return unreadable(error);
    }
  });

  app.get('/portal-api/activity.csv', async (c) => {
    const reviewer = signedIn(c.req.raw);
    if (reviewer instanceof Response) return reviewer;
    const parsed = parseQuery(new URL(c.req.url).searchParams);
    if ('error' in parsed) return jsonResponse(400, { detail: parsed.error });
    let first: AuditPage;
    try {
      first = await listed(parsed.filter, { cursor: null, limit: CSV_PAGE });
    } catch (error) {
      return unreadable(error);
    }
    return new Response(
      csvStream(first, (cursor) => listed(parsed.filter, cursor), log),
      {
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': 'attachment; filename="activity.csv"',
          'cache-control': 'no-store',
        },
      },
    );
  });

  app.all('*', () => jsonResponse(404, { detail: 'Not Found' }));

  return {
    around,
    api: async (request, innerPath) => {
      const url = new URL(request.url);
      url.pathname = innerPath;
      return app.fetch(new Request(url, { method: request.method, headers: request.headers }));
    },
  };
}

/**
 * The CSV a page at a time as the download is read: memory holds one page, whatever the trail's
 * size, and the first bytes leave as soon as the first page is read.
 */
function csvStream(
  first: AuditPage,
  next: (page: { cursor: number; limit: number }) => Promise<AuditPage>,
  log: (line: string) => void,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let page: AuditPage | null = first;
  let rows = 0;
  let header = true;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          if (!page) {
            controller.close();
            return;
          }
          const lines = header ? [CSV_COLUMNS.join(',')] : [];
          header = false;
          const room = CSV_MAX_ROWS - rows;
          for (const entry of page.entries.slice(0, room)) lines.push(csvRow(entry));
          rows += Math.min(page.entries.length, room);
          const cursor = page.nextCursor;
          page = null;
          controller.enqueue(encoder.encode(`${lines.join('\r\n')}\r\n`));
          if (cursor !== null && rows < CSV_MAX_ROWS) {
            page = await next({ cursor, limit: CSV_PAGE });
          }
        } catch (error) {
          log(`[audit] the CSV stopped part way: ${message(error)}`);
          controller.error(error);
        }
      },
    },
    { highWaterMark: 0 },
  );
}

export const CSV_COLUMNS = [
  'time',
  'reviewer',
  'reviewer_name',
  'source',
  'source_kind',
  'question_id',
  'action',
  'status',
  'request_id',
  'answer',
  'answer_kept_as',
  'answer_bytes',
  'answer_sha256',
  'detail',
  'reviewer_self_named',
] as const;

/**
 * A CSV field: every text quoted, so a spreadsheet that splits on `;` or a tab instead of `,`
 * keeps it one cell, and a leading = + - @ tab or CR defused with `'` so it shows as text.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${text.replace(/"/g, '""')}"`;
}

export function csvRow(entry: AuditEntry): string {
  return [
    entry.at,
    entry.reviewer,
    entry.reviewerName,
    entry.sourceId,
    entry.sourceKind,
    entry.questionId,
    entry.action,
    entry.status,
    entry.requestId,
    entry.answer,
    entry.answerMode,
    entry.answerBytes,
    entry.answerSha256,
    entry.detail,
    entry.selfNamed === null ? null : String(entry.selfNamed),
  ]
    .map(csvField)
    .join(',');
}

type Parsed =
  | { filter: AuditFilter; page: { cursor: number | null; limit: number } }
  | { error: string };

/** The read API's query: `question` (repeatable), `source`, `reviewer`, `action`, `from`, `to`, `q`, `cursor`, `limit`. */
export function parseQuery(params: URLSearchParams): Parsed {
  const filter: AuditFilter = {};
  for (const [name, value] of params) {
    if (value.includes(NUL)) return { error: `${name} holds a NUL character (%00): remove it.` };
  }
  const text = (name: string) => params.get(name)?.trim().slice(0, 500) || undefined;
  const questions = params
    .getAll('question')
    .map((q) => q.trim())
    .filter(Boolean);
  if (questions.length > 100) return { error: 'At most 100 question ids at once.' };
  if (questions.some((q) => q.length > MAX_QUESTION_ID_LENGTH)) {
    return { error: `A question id is at most ${MAX_QUESTION_ID_LENGTH} characters.` };
  }
  if (questions.length) filter.questionIds = questions;
  filter.sourceId = text('source');
  filter.reviewer = text('reviewer');
  filter.search = text('q');
  const action = text('action');
  if (action && !(auditActions as readonly string[]).includes(action)) {
    return { error: `Unknown action "${action}": one of ${auditActions.join(', ')}.` };
  }
  filter.action = action;
  for (const name of ['from', 'to'] as const) {
    const value = text(name);
    if (value === undefined) continue;
    const time = Date.parse(value);
    const year = Number.isNaN(time) ? 0 : new Date(time).getUTCFullYear();
    if (year < 1 || year > 9999) {
      return { error: `${name} must be a date or time (ISO 8601) from year 1 to 9999.` };
    }
    filter[name] = new Date(time).toISOString();
  }
  const limitText = text('limit');
  const limit = limitText === undefined ? PAGE_LIMIT_DEFAULT : Number(limitText);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > PAGE_LIMIT_MAX) {
    return { error: `limit must be a whole number from 1 to ${PAGE_LIMIT_MAX}.` };
  }
  const cursorText = text('cursor');
  const cursor = cursorText === undefined ? null : Number(cursorText);
  if (cursor !== null && (!Number.isSafeInteger(cursor) || cursor < 1)) {
    return { error: 'cursor is not one this server gave.' };
  }
  return { filter, page: { cursor, limit } };
}

// ---- A trail kept in memory (the static demo keeps it in IndexedDB between its workers). ----

/**
 * Whether `entry` passes `filter`, as server/db/queries.ts asks PostgreSQL: the search is
 * case-insensitive over the reviewer, question id, the answer's first 500 characters (what the
 * search index holds, so that no write pays for more) and reviewer's name (each on its own,
 * never across two), `from` inclusive and `to` exclusive.
 */
export function entryMatches(entry: AuditEntry, filter: AuditFilter): boolean {
  if (filter.sourceId && entry.sourceId !== filter.sourceId) return false;
  if (filter.questionIds?.length && !filter.questionIds.includes(entry.questionId)) return false;
  if (filter.reviewer && entry.reviewer !== filter.reviewer) return false;
  if (filter.action && entry.action !== filter.action) return false;
  const at = Date.parse(entry.at);
  if (filter.from && at < Date.parse(filter.from)) return false;
  if (filter.to && at >= Date.parse(filter.to)) return false;
  if (filter.search) {
    const searched = [
      entry.reviewer,
      entry.questionId,
      Array.from(entry.answer ?? '')
        .slice(0, SEARCHED_ANSWER_CHARS)
        .join(''),
      entry.reviewerName ?? '',
    ]
      .join('\u0001')
      .toLowerCase();
    if (!searched.includes(filter.search.toLowerCase())) return false;
  }
  return true;
}

type StoredEntry = Omit<AuditEntry, 'status' | 'detail'>;

/** What memoryTrail keeps, as plain data (IndexedDB stores it as is). */
export interface TrailSnapshot {
  entries: StoredEntry[];
  outcomes: AuditOutcome[];
  nextId: number;
}

export interface MemoryTrail extends TrailStore {
  snapshot(): TrailSnapshot;
  /** False when `saved` is not a snapshot (then the trail stays as it is). */
  restore(saved: unknown): boolean;
  clear(): void;
}

/**
 * A trail in memory, newest `maxEntries` kept (the oldest go first, as retention prunes them on
 * the server). `onChange` runs after every write, for whoever persists it.
 */
export function memoryTrail(
  options: { maxEntries?: number; onChange?: () => void; now?: () => number } = {},
): MemoryTrail {
  const maxEntries = options.maxEntries ?? 5000;
  const now = options.now ?? Date.now;
  let entries: StoredEntry[] = [];
  let outcomes = new Map<string, AuditOutcome>();
  let nextId = 1;
  const changed = () => options.onChange?.();

  return {
    async insertAttempts(attempts) {
      for (const attempt of attempts) {
        entries.push({
          id: nextId++,
          at: (attempt.at ?? new Date(now())).toISOString(),
          requestId: attempt.requestId,
          reviewer: attempt.reviewer,
          reviewerName: attempt.reviewerName,
          selfNamed: attempt.selfNamed ?? null,
          sourceId: attempt.sourceId,
          sourceKind: attempt.sourceKind,
          questionId: attempt.questionId,
          action: attempt.action,
          answer: attempt.answer,
          answerMode: attempt.answerMode,
          answerBytes: attempt.answerBytes ?? null,
          answerSha256: attempt.answerSha256 ?? null,
        });
      }
      if (entries.length > maxEntries) {
        const gone = entries.splice(0, entries.length - maxEntries);
        const kept = new Set(entries.map((entry) => entry.requestId));
        for (const entry of gone) if (!kept.has(entry.requestId)) outcomes.delete(entry.requestId);
      }
      changed();
    },
    async insertOutcome(outcome) {
      if (outcomes.has(outcome.requestId)) return;
      outcomes.set(outcome.requestId, { ...outcome });
      changed();
    },
    async listEntries(filter, page) {
      const found: AuditEntry[] = [];
      let more = false;
      for (let index = entries.length - 1; index >= 0; index--) {
        const stored = entries[index] as StoredEntry;
        if (page.cursor !== null && stored.id >= page.cursor) continue;
        const outcome = outcomes.get(stored.requestId);
        const entry: AuditEntry = {
          ...stored,
          // Entries a browser saved before these were kept.
          answerBytes: stored.answerBytes ?? null,
          answerSha256: stored.answerSha256 ?? null,
          status: outcome?.status ?? null,
          detail: outcome?.detail ?? null,
        };
        if (!entryMatches(entry, filter)) continue;
        if (found.length === page.limit) {
          more = true;
          break;
        }
        found.push(entry);
      }
      const last = found.at(-1);
      return { entries: found, nextCursor: more && last ? last.id : null };
    },
    snapshot: () => ({ entries: [...entries], outcomes: [...outcomes.values()], nextId }),
    restore(saved) {
      const value = saved as Partial<TrailSnapshot> | null;
      if (
        !value ||
        typeof value !== 'object' ||
        !Array.isArray(value.entries) ||
        !Array.isArray(value.outcomes) ||
        typeof value.nextId !== 'number'
      ) {
        return false;
      }
      entries = value.entries.filter(
        (entry) =>
          typeof entry === 'object' &&
          entry !== null &&
          typeof entry.id === 'number' &&
          typeof entry.requestId === 'string',
      );
      outcomes = new Map(value.outcomes.map((outcome) => [outcome.requestId, outcome]));
      nextId = Math.max(value.nextId, (entries.at(-1)?.id ?? 0) + 1);
      return true;
    },
    clear() {
      entries = [];
      outcomes = new Map();
      changed();
    },
  };
}
