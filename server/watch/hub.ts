// Changes to the copy, to every replica's browsers: the replica that made a change (the watcher,
// or a re-read after a write) tells its own streams at once and the others through the bus
// (PostgreSQL NOTIFY: just the source and version; each replica reads the change itself from
// watch_changes). Each browser hears each version of each source once, in order; a replica that
// missed versions (the bus was down) tells its browsers to read the list again.
import type { Queryable } from '../db/engine';
import { type AppliedChange, changesSince, sourceVersions } from './store';

/** The PostgreSQL NOTIFY channel of the copy's versions. */
export const WATCH_CHANNEL = 'qi_watch';

/** What a browser's stream carries (`event: questions`), as JSON text. */
export type ListsEventData = string;

/**
 * Above this, a change goes to browsers as "read the list again" (each reads it from the copy)
 * rather than as records: a stream never carries a message larger than this.
 */
export const MAX_CHANGE_CHARS = 256 * 1024;

export interface Bus {
  publish(message: string): Promise<void>;
  subscribe(onMessage: (message: string) => void): Promise<() => Promise<void>>;
}

export interface HubOptions {
  db: Queryable;
  bus: Bus | null;
  /** Every replica's streams: `data` is sent as one `event: questions` message to each. */
  send: (data: ListsEventData) => void;
  log?: (line: string) => void;
}

export interface Hub {
  /** A change this replica made. */
  local(change: AppliedChange): void;
  /** The versions browsers are told of first (their list reads say which version they show). */
  versions(): Record<string, number>;
  /** Reads the versions from the copy (at start, and when the bus comes back). */
  resync(): Promise<void>;
  close(): Promise<void>;
}

/** The stream message of one change, from its stored payload ({units: [{id, wire}], removed}). */
export function changeMessage(sourceId: string, version: number, payload: string): string {
  if (payload.length > MAX_CHANGE_CHARS) {
    return JSON.stringify({ source: sourceId, version, reload: true });
  }
  const parsed = JSON.parse(payload) as {
    units: { id: string; wire: string }[];
    removed: string[];
  };
  // The records go as they are (JSON text in the stored wire), never parsed and written again.
  const units = parsed.units
    .map((unit) => `{"id":${JSON.stringify(unit.id)},"record":${unit.wire}}`)
    .join(',');
  return `{"source":${JSON.stringify(sourceId)},"version":${version},"units":[${units}],"removed":${JSON.stringify(parsed.removed)}}`;
}

export function createHub(options: HubOptions): Hub {
  const { db, bus } = options;
  const log = options.log ?? ((line: string) => console.error(line));
  const delivered = new Map<string, number>();
  // One catch-up per source at a time; a later version asked meanwhile is caught up after it.
  const catching = new Map<string, Promise<void>>();
  const wanted = new Map<string, number>();

  const deliver = (sourceId: string, version: number, data: string) => {
    const last = delivered.get(sourceId) ?? 0;
    if (version <= last) return;
    delivered.set(sourceId, version);
    options.send(data);
  };

  const catchUp = (sourceId: string, version: number): Promise<void> => {
    wanted.set(sourceId, Math.max(version, wanted.get(sourceId) ?? 0));
    const running = catching.get(sourceId);
    if (running) return running;
    const run = (async () => {
      for (;;) {
        const target = wanted.get(sourceId) ?? 0;
        const last = delivered.get(sourceId) ?? 0;
        if (target <= last) return;
        const changes = await changesSince(db, sourceId, last);
        if (changes === null || changes.length === 0) {
          // Versions this replica never saw, or a source it has not heard of yet: browsers read
          // the list again rather than miss a change.
          deliver(
            sourceId,
            target,
            JSON.stringify({ source: sourceId, version: target, reload: true }),
          );
          continue;
        }
        for (const change of changes) {
          deliver(
            sourceId,
            change.version,
            changeMessage(sourceId, change.version, change.payload),
          );
        }
        if ((changes.at(-1)?.version ?? 0) < target) {
          // The change is not yet visible (its transaction is committing): asked again shortly.
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    })()
      .catch((error: unknown) => {
        log(
          `[watch] could not read the copy's changes: ${error instanceof Error ? error.message : error}`,
        );
      })
      .finally(() => catching.delete(sourceId));
    catching.set(sourceId, run);
    return run;
  };

  let unsubscribe: (() => Promise<void>) | null = null;
  if (bus) {
    void bus
      .subscribe((message) => {
        try {
          const parsed = JSON.parse(message) as { source?: unknown; version?: unknown };
          if (typeof parsed.source === 'string' && typeof parsed.version === 'number') {
            void catchUp(parsed.source, parsed.version);
          }
        } catch {
          // Not ours.
        }
      })
      .then((stop) => {
        unsubscribe = stop;
      })
      .catch((error: unknown) => {
        log(
          `[watch] could not listen for the copy's changes: ${error instanceof Error ? error.message : error}`,
        );
      });
  }

  return {
    local(change) {
      if (change.version === null) return;
      const payload = JSON.stringify({
        units: change.units.map((unit) => ({ id: unit.id, wire: unit.wire })),
        removed: change.removed,
      });
      const last = delivered.get(change.sourceId) ?? 0;
      if (last === change.version - 1) {
        deliver(
          change.sourceId,
          change.version,
          changeMessage(change.sourceId, change.version, payload),
        );
      } else void catchUp(change.sourceId, change.version);
      void bus
        ?.publish(JSON.stringify({ source: change.sourceId, version: change.version }))
        .catch((error: unknown) => {
          log(
            `[watch] could not tell other replicas: ${error instanceof Error ? error.message : error}`,
          );
        });
    },
    versions: () => Object.fromEntries(delivered),
    async resync() {
      const versions = await sourceVersions(db);
      for (const [sourceId, version] of versions) {
        if (!delivered.has(sourceId)) delivered.set(sourceId, version);
        else void catchUp(sourceId, version);
      }
    },
    async close() {
      await unsubscribe?.();
    },
  };
}
