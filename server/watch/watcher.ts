// The portal server's reader of each system: every interval, the replica holding the lease reads
// each system's lists once (server/watch/read.ts) and writes what changed into the copy
// (store.ts); every replica re-reads a record after a write through it, so its copy never shows
// an answered question as waiting. Listeners hear each change (the browsers' streams, the
// server's own figures).
import type { Db } from '../db/engine';
import type { Lease } from './lease';
import {
  type KnownConversation,
  type ListRead,
  readSystem,
  readUnit,
  type SystemFetch,
} from './read';
import { type AppliedChange, applyRead, loadUnits, recordError } from './store';
import type { SystemKind, Unit } from './wire';

export interface WatchedSystem {
  /** The source id (config.json's `sources[].id`): `reflexio`, `vertesia`, `bilby`. */
  id: string;
  kind: SystemKind;
  /** For plain-words messages: `Reflexio`. */
  name: string;
  fetch: SystemFetch;
  apiVersion?: string;
  organizationId?: string;
}

export interface SystemStatus {
  sourceId: string;
  kind: SystemKind;
  name: string;
  /** Last successful read (ms since epoch), on this replica; null before the first. */
  readAt: number | null;
  /** How long the last read took (ms). */
  lastReadMs: number | null;
  /** Reads that failed since start (this replica). */
  errors: number;
  /** The last failure in plain words, while it lasts. */
  error: string | null;
  /** Requests sent to the system by reads (this replica), by the system's list or records. */
  requests: number;
}

export interface WatcherOptions {
  db: Db;
  systems: WatchedSystem[];
  lease: Lease;
  /** WATCH_INTERVAL_SECONDS × 1000. */
  intervalMs: number;
  log?: (line: string) => void;
}

export interface Watcher {
  start(): void;
  stop(): Promise<void>;
  /** Whether this replica watches now (holds the lease). */
  watching(): boolean;
  systems(): SystemStatus[];
  /** After a write through the portal: re-reads that record so the copy shows it as it is now. */
  refreshUnit(sourceId: string, unitId: string): Promise<void>;
  /** Runs one read of every system now (tests, the bench); resolves when written. */
  readNow(): Promise<void>;
  onChange(listener: (change: AppliedChange) => void): () => void;
}

interface Memory {
  /** unit id → wire, as this watcher last wrote or saw it. */
  wire: Map<string, string>;
  /** Bilby: each conversation's list entry and detail. */
  bilby: Map<string, KnownConversation>;
  /** The database time the last read began (records changed since by others are re-loaded). */
  since: string | null;
}

function oneLine(error: unknown): string {
  return ((error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '').slice(
    0,
    300,
  );
}

export function createWatcher(options: WatcherOptions): Watcher {
  const { db, lease, intervalMs } = options;
  const log = options.log ?? ((line: string) => console.error(line));
  const listeners = new Set<(change: AppliedChange) => void>();
  const status = new Map<string, SystemStatus>(
    options.systems.map((system) => [
      system.id,
      {
        sourceId: system.id,
        kind: system.kind,
        name: system.name,
        readAt: null,
        lastReadMs: null,
        errors: 0,
        error: null,
        requests: 0,
      },
    ]),
  );
  const memory = new Map<string, Memory>();
  const running = new Map<string, Promise<void>>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  const emit = (change: AppliedChange) => {
    if (change.version === null && change.opened.length === 0 && change.closed.length === 0) return;
    for (const listener of listeners) {
      try {
        listener(change);
      } catch (error) {
        log(`[watch] a listener failed: ${oneLine(error)}`);
      }
    }
  };

  const dbNow = async (): Promise<string> => {
    const [row] = await db.query<{ now: Date | string }>('SELECT now() AS now');
    return new Date(row?.now ?? Date.now()).toISOString();
  };

  const unitsToMemory = (units: { id: string; wire: string; summary: string | null }[]) => {
    const mem: Memory = { wire: new Map(), bilby: new Map(), since: null };
    for (const unit of units) mem.wire.set(unit.id, unit.wire);
    return mem;
  };

  /** What this watcher knows of a system: loaded from the copy when it starts watching. */
  const remembered = async (system: WatchedSystem): Promise<Memory> => {
    let mem = memory.get(system.id);
    if (!mem) {
      const units = await loadUnits(db, system.id);
      mem = unitsToMemory(units);
      if (system.kind === 'bilby') {
        for (const unit of units) {
          mem.bilby.set(unit.id, {
            summary: unit.summary ?? undefined,
            unit: { id: unit.id, wire: unit.wire, questions: [] },
          });
        }
      }
      memory.set(system.id, mem);
    } else if (mem.since) {
      // Records another replica re-read after a write since this watcher's last read.
      const rows = await db.query<{ unit_id: string; wire: string }>(
        'SELECT unit_id, wire FROM watch_units WHERE source_id = $1 AND changed_at > $2::timestamptz',
        [system.id, mem.since],
      );
      for (const row of rows) mem.wire.set(row.unit_id, row.wire);
    }
    return mem;
  };

  const readOnce = async (system: WatchedSystem) => {
    const state = status.get(system.id) as SystemStatus;
    const started = performance.now();
    let read: ListRead;
    let mem: Memory;
    let readStartedAt: string;
    try {
      mem = await remembered(system);
      readStartedAt = await dbNow();
      read = await readSystem(system, mem.bilby);
    } catch (error) {
      state.errors += 1;
      const message = `${system.name} ${oneLine(error)}`;
      if (state.error !== message) log(`[watch] could not read ${message}`);
      state.error = message;
      await recordError(db, system.id, system.kind, message).catch(() => {});
      return;
    } finally {
      state.lastReadMs = Math.round(performance.now() - started);
    }
    state.requests += read.requests;
    const listed = new Set(read.units.map((unit) => unit.id));
    // A cut read says nothing of what it did not reach.
    const removed = read.truncated ? [] : [...mem.wire.keys()].filter((id) => !listed.has(id));
    try {
      const change = await applyRead(db, {
        sourceId: system.id,
        kind: system.kind,
        readStartedAt,
        units: read.units,
        previous: mem.wire,
        removed,
        whole: {
          order: read.order,
          pendingOrder: read.pendingOrder,
          truncated: read.truncated,
          clockOffsetMs: read.clockOffsetMs,
        },
      });
      for (const unit of read.units) mem.wire.set(unit.id, unit.wire);
      for (const id of removed) mem.wire.delete(id);
      if (system.kind === 'bilby') {
        mem.bilby = new Map(
          read.units.map((unit): [string, KnownConversation] => [
            unit.id,
            { summary: unit.summary, unit },
          ]),
        );
      }
      mem.since = readStartedAt;
      if (state.error) log(`[watch] ${system.name} reads again`);
      state.error = null;
      state.readAt = Date.now();
      emit(change);
    } catch (error) {
      state.errors += 1;
      state.error = `${system.name}: the copy could not be written (${oneLine(error)})`;
      log(`[watch] ${state.error}`);
      // What was written is unknown: the next read starts again from the copy.
      memory.delete(system.id);
    }
  };

  const readSystemOnce = (system: WatchedSystem) => {
    const current = running.get(system.id);
    if (current) return current;
    const run = readOnce(system).finally(() => running.delete(system.id));
    running.set(system.id, run);
    return run;
  };

  const tick = async () => {
    timer = null;
    if (stopped) return;
    const holding = await lease.hold();
    if (!holding) memory.clear();
    else await Promise.all(options.systems.map(readSystemOnce));
    if (!stopped) {
      timer = setTimeout(() => void tick(), intervalMs);
      timer.unref?.();
    }
  };

  return {
    start() {
      if (timer || stopped) return;
      timer = setTimeout(() => void tick(), 0);
      timer.unref?.();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await Promise.allSettled([...running.values()]);
      await lease.release();
    },
    watching: () => lease.held(),
    systems: () => [...status.values()].map((s) => ({ ...s })),
    async refreshUnit(sourceId, unitId) {
      const system = options.systems.find((s) => s.id === sourceId);
      if (!system) return;
      const [stored] = await db.query<{ wire: string; summary: string | null }>(
        'SELECT wire, summary FROM watch_units WHERE source_id = $1 AND unit_id = $2',
        [sourceId, unitId],
      );
      const readStartedAt = await dbNow();
      let unit: Unit | null;
      try {
        unit = await readUnit(system, unitId, stored?.summary ?? null);
      } catch (error) {
        log(`[watch] could not re-read ${system.name} ${unitId.slice(0, 80)}: ${oneLine(error)}`);
        return;
      }
      const previous = new Map(stored ? [[unitId, stored.wire]] : []);
      const change = await applyRead(db, {
        sourceId,
        kind: system.kind,
        readStartedAt,
        units: unit ? [unit] : [],
        previous,
        removed: unit || !stored ? [] : [unitId],
      });
      emit(change);
    },
    async readNow() {
      if (!(await lease.hold())) return;
      await Promise.all(options.systems.map(readSystemOnce));
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
