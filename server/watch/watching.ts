// The watcher as the server runs it: which systems it reads (those whose key the server holds,
// or whose mock it serves), the lease that makes one replica read them, the copy every replica
// answers browsers from, and the hub that takes each change to every browser's stream. start.ts
// builds this once and hands its parts to the HTTP app, the audit trail and the team.
import type { Db } from '../db/engine';
import { message } from '../lib/message';
import { createCopy } from './copy';
import { createHub, WATCH_CHANNEL } from './hub';
import { advisoryLease, postgresLeaseConnection, soleLease } from './lease';
import {
  type OnSystemRequest,
  type ServedSystem,
  WATCHER_READ_HEADER,
  watchedSystems,
} from './systems';
import { createWatcher, type SystemStatus } from './watcher';

/** How long a write's answer waits for its record to be read again into the copy. */
const REFRESH_AFTER_WRITE_MS = 3000;
/** The mock's test tenants (e2e journeys, the bench) read the mock itself, never the copy. */
const TENANT_COOKIE = /(?:^|;\s*)mock_tenant=/;

export interface WatchingOptions {
  db: Db;
  /** DATABASE_URL: several replicas share it, and a lease says which one reads. */
  databaseUrl: string | null;
  systems: readonly ServedSystem[];
  intervalMs: number;
  /** The team's streams: each change goes to every browser as `event: questions`. */
  send: (data: string) => void;
  onRequest?: OnSystemRequest;
  /** Questions the watcher saw close: their claims go (server/team). Ids as the system names them. */
  onClosed?: (sourceId: string, questionIds: string[]) => void;
  log?: (line: string) => void;
}

export interface Watching {
  /** The systems read, by source id. */
  sources: readonly string[];
  watching(): boolean;
  systems(): SystemStatus[];
  /** What the team's snapshot says of it (see server/team/types.ts WatchState). */
  state(): { intervalSeconds: number; sources: string[]; versions: Record<string, number> } | null;
  /** Reads every system now, when this replica holds the lease (tests, the bench). */
  readNow(): Promise<void>;
  /**
   * Whether this browser's list reads come from the copy: not a browser on one of the mocks' test
   * tenants (e2e journeys, the bench), which reads the mock itself and so keeps polling.
   */
  readsCopy(request: Request): boolean;
  /** For the HTTP app: a browser's read answered from the copy, or null (the system answers). */
  fromCopy(read: {
    sourceId: string;
    targetPath: string;
    search: string;
    request: Request;
  }): Promise<Response | null>;
  /**
   * After a system accepted a write through the portal: its records are read again into the copy
   * before the answer goes back, so the browser's next read shows them as they are now.
   */
  afterWrite(sourceId: string, questionIds: readonly string[]): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** The record a question belongs to: a Bilby question (`<conversation>:<call>`) is its conversation's. */
export function unitOf(kind: string, questionId: string): string {
  const at = questionId.indexOf(':');
  return kind === 'bilby' && at > 0 ? questionId.slice(0, at) : questionId;
}

function onTenant(request: Request): boolean {
  return (
    request.headers.has('x-mock-tenant') || TENANT_COOKIE.test(request.headers.get('cookie') ?? '')
  );
}

export function createWatching(options: WatchingOptions): Watching {
  const { db, intervalMs } = options;
  const log = options.log ?? ((line: string) => console.error(line));
  const systems = watchedSystems(options.systems, options.onRequest);
  const kinds = new Map(systems.map((system) => [system.id, system.kind]));
  const mocks = new Set(options.systems.filter((s) => !s.upstream && s.mock).map((s) => s.id));
  const databaseUrl = options.databaseUrl;
  const lease = databaseUrl
    ? advisoryLease(() => postgresLeaseConnection(databaseUrl), { log })
    : soleLease();
  const watcher = createWatcher({ db, systems, lease, intervalMs, log });
  const copy = createCopy({ db, sources: systems, intervalMs });
  const listen = db.listen?.bind(db);
  const hub = createHub({
    db,
    listen: listen ? (handlers) => listen(WATCH_CHANNEL, handlers) : null,
    send: options.send,
    log,
  });
  watcher.onChange((change) => {
    hub.local(change);
    if (change.closed.length > 0) {
      options.onClosed?.(
        change.sourceId,
        change.closed.map((question) => question.questionId),
      );
    }
  });

  return {
    sources: systems.map((system) => system.id),
    watching: () => watcher.watching(),
    systems: () => watcher.systems(),
    readNow: () => watcher.readNow(),
    state: () =>
      systems.length === 0
        ? null
        : {
            intervalSeconds: Math.round(intervalMs / 1000),
            sources: systems.map((system) => system.id),
            versions: hub.versions(),
          },
    readsCopy: (request) => systems.length > 0 && !(mocks.size > 0 && onTenant(request)),
    async fromCopy({ sourceId, targetPath, search, request }) {
      if (!kinds.has(sourceId)) return null;
      // Another replica's watcher reads the system through this one: never from the copy it is
      // writing. Anyone can send this header; all it gets is the read the system itself answers,
      // as every browser got before the watcher (the proxy's guards and caps still apply).
      if (request.headers.has(WATCHER_READ_HEADER)) return null;
      if (mocks.has(sourceId) && onTenant(request)) return null;
      return copy.answer(sourceId, targetPath, search);
    },
    async afterWrite(sourceId, questionIds) {
      const kind = kinds.get(sourceId);
      if (!kind) return;
      const units = [...new Set(questionIds.map((id) => unitOf(kind, id)))];
      const refreshed = Promise.all(
        units.map((unit) =>
          watcher.refreshUnit(sourceId, unit).catch((error: unknown) => {
            log(`[watch] could not read ${sourceId} ${unit.slice(0, 80)} again: ${message(error)}`);
          }),
        ),
      );
      let timer: ReturnType<typeof setTimeout> | undefined;
      // A slow system does not hold the reviewer's answer: the next read brings the record.
      await Promise.race([
        refreshed,
        new Promise((resolve) => {
          timer = setTimeout(resolve, REFRESH_AFTER_WRITE_MS);
        }),
      ]);
      clearTimeout(timer);
    },
    async start() {
      if (systems.length === 0) return;
      await hub.resync().catch((error: unknown) => {
        log(`[watch] could not read the copy's versions: ${message(error)}`);
      });
      watcher.start();
    },
    async close() {
      await watcher.stop();
      await hub.close();
    },
  };
}
