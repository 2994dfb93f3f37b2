// Browsers' list requests answered from the watcher's copy, in each system's own format (the
// browser's adapters read them as they read the system), so a team of any size costs each
// system one read per interval. Any replica answers: the copy is in the database; each replica
// keeps the lists of the version it last loaded. What the copy cannot answer exactly (a filter it
// does not hold, a system whose reads are failing or late) goes to the system as before.
import type { Queryable } from '../db/engine';
import { BILBY_LIST, REFLEXIO_LIMIT, VERTESIA_LIST } from './read';
import { loadUnits, type SourceState, sourceState } from './store';
import { record, type SystemKind } from './wire';

export interface CopySource {
  id: string;
  kind: SystemKind;
}

interface Loaded {
  state: SourceState;
  wire: Map<string, string>;
  summary: Map<string, string>;
  /** Reflexio: each call's status. */
  status: Map<string, string>;
}

export interface CopyOptions {
  db: Queryable;
  sources: CopySource[];
  /** WATCH_INTERVAL_SECONDS × 1000: a copy not read for 3 intervals is not served. */
  intervalMs: number;
  now?: () => number;
}

export interface Copy {
  /**
   * The answer to `GET <targetPath><search>` of `sourceId` from the copy, or null when the copy
   * cannot give it exactly (then the request goes to the system).
   */
  answer(sourceId: string, targetPath: string, search: string): Promise<Response | null>;
}

/** Marks an answer from the copy, with the version of the copy it reflects. */
export const COPY_VERSION_HEADER = 'x-copy-version';
/**
 * A list from the copy also says its version in its body (the browser's adapters read bodies, and
 * keep unknown fields): the stream's changes after it apply to it, earlier ones are in it.
 */
export const COPY_VERSION_FIELD = 'copyVersion';

function join(ids: readonly string[], wire: ReadonlyMap<string, string>): string {
  const parts: string[] = [];
  for (const id of ids) {
    const text = wire.get(id);
    if (text !== undefined) parts.push(text);
  }
  return parts.join(',');
}

function statusOf(wire: string): string {
  try {
    const value = record(JSON.parse(wire))?.status;
    return typeof value === 'string' ? value : 'pending';
  } catch {
    return 'pending';
  }
}

function versionField(copy: Loaded): string {
  return `"${COPY_VERSION_FIELD}":${copy.state.version}`;
}

export function createCopy(options: CopyOptions): Copy {
  const { db, intervalMs } = options;
  const now = options.now ?? Date.now;
  const kinds = new Map(options.sources.map((source) => [source.id, source.kind]));
  const loaded = new Map<string, Loaded>();
  const loading = new Map<string, Promise<Loaded | null>>();

  const load = async (sourceId: string): Promise<Loaded | null> => {
    const state = await sourceState(db, sourceId);
    if (!state) return null;
    const have = loaded.get(sourceId);
    if (have && have.state.version === state.version) {
      have.state = state;
      return have;
    }
    const units = await loadUnits(db, sourceId);
    const next: Loaded = { state, wire: new Map(), summary: new Map(), status: new Map() };
    for (const unit of units) {
      next.wire.set(unit.id, unit.wire);
      if (unit.summary !== null) next.summary.set(unit.id, unit.summary);
      if (kinds.get(sourceId) === 'reflexio') next.status.set(unit.id, statusOf(unit.wire));
    }
    loaded.set(sourceId, next);
    return next;
  };

  /** The copy as it is now, shared by requests that arrive together. */
  const current = (sourceId: string) => {
    const inFlight = loading.get(sourceId);
    if (inFlight) return inFlight;
    const run = load(sourceId).finally(() => loading.delete(sourceId));
    loading.set(sourceId, run);
    return run;
  };

  const fresh = (state: SourceState) => {
    if (!state.readAt) return false;
    const readAt = Date.parse(state.readAt);
    if (state.errorAt && Date.parse(state.errorAt) >= readAt) return false;
    return now() - readAt <= 3 * intervalMs;
  };

  const respond = (copy: Loaded, body: string) =>
    new Response(body, {
      status: 200,
      headers: {
        'content-type': 'application/json',
        'cache-control': 'no-store',
        // The system's clock, as the browser would have read it from the system itself.
        date: new Date(now() + copy.state.clockOffsetMs).toUTCString(),
        [COPY_VERSION_HEADER]: String(copy.state.version),
      },
    });

  const reflexio = (copy: Loaded, targetPath: string, params: URLSearchParams) => {
    if (targetPath !== '/api/pending_tool_calls') return null;
    if ([...params.keys()].some((key) => key !== 'status' && key !== 'limit')) return null;
    const limitText = params.get('limit');
    const limit = limitText === null ? 100 : Number(limitText);
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > REFLEXIO_LIMIT) return null;
    const status = params.get('status');
    const { order, pendingOrder } = copy.state;
    let ids: readonly string[];
    if (status === null || status === '') ids = order;
    else if (order.length < REFLEXIO_LIMIT)
      ids = order.filter((id) => copy.status.get(id) === status);
    else if (status === 'pending' && pendingOrder) ids = pendingOrder;
    else return null;
    return respond(
      copy,
      `{"pending_tool_calls":[${join(ids.slice(0, limit), copy.wire)}],${versionField(copy)}}`,
    );
  };

  const vertesia = (copy: Loaded, targetPath: string, params: URLSearchParams) => {
    if (targetPath !== VERTESIA_LIST || [...params.keys()].length > 0) return null;
    return respond(copy, `{"asks":[${join(copy.state.order, copy.wire)}],${versionField(copy)}}`);
  };

  const bilby = (copy: Loaded, targetPath: string, params: URLSearchParams) => {
    if ([...params.keys()].some((key) => key !== 'organizationId')) return null;
    if (copy.state.truncated) return null;
    if (targetPath === BILBY_LIST) {
      return respond(
        copy,
        `{"conversations":[${join(copy.state.order, copy.summary)}],"nextCursor":null,${versionField(copy)}}`,
      );
    }
    if (!targetPath.startsWith(`${BILBY_LIST}/`)) return null;
    const raw = targetPath.slice(BILBY_LIST.length + 1);
    if (raw.includes('/')) return null;
    let id: string;
    try {
      id = decodeURIComponent(raw);
    } catch {
      return null;
    }
    const wire = copy.wire.get(id);
    return wire === undefined ? null : respond(copy, wire);
  };

  return {
    async answer(sourceId, targetPath, search) {
      const kind = kinds.get(sourceId);
      if (!kind) return null;
      let copy: Loaded | null;
      try {
        copy = await current(sourceId);
      } catch {
        // The database is unavailable: the system answers instead.
        return null;
      }
      if (!copy || !fresh(copy.state)) return null;
      const params = new URLSearchParams(search);
      if (kind === 'reflexio') return reflexio(copy, targetPath, params);
      if (kind === 'vertesia') return vertesia(copy, targetPath, params);
      return bilby(copy, targetPath, params);
    },
  };
}
