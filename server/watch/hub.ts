// Changes to the copy, to every replica's browsers: the replica that made a change (the watcher,
// or a re-read after a write) tells its own streams at once and the others through the channel
// (PostgreSQL NOTIFY: just the source and version; each replica reads the change itself from
// watch_changes). Each browser hears each version of each source once, in order; a replica that
// missed versions (the channel was down) tells its browsers to read the list again.
import type { Channel, ChannelHandlers, Queryable } from '../db/engine';
import { message } from '../lib/message';
import { type AppliedChange, changesSince, sourceVersions } from './store';

/** The PostgreSQL NOTIFY channel of the copy's versions. */
export const WATCH_CHANNEL = 'qi_watch';

/**
 * Above this, a change goes to browsers as "read the list again" (each reads it from the copy)
 * rather than as records: a stream never carries a message larger than this.
 */
export const MAX_CHANGE_CHARS = 256 * 1024;

export interface HubOptions {
  db: Queryable;
  /** The channel between replicas (PostgreSQL LISTEN/NOTIFY); none embedded (one process). */
  listen: ((handlers: ChannelHandlers) => Promise<Channel>) | null;
  /** Every stream of this replica: `data` goes as one `event: questions` message to each. */
  send: (data: string) => void;
  log?: (line: string) => void;
}

export interface Hub {
  /** A change this replica made. */
  local(change: AppliedChange): void;
  /** The versions browsers are told of first (their list reads say which version they show). */
  versions(): Record<string, number>;
  /** Reads the versions from the copy (at start, and when the channel comes back). */
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
  const { db } = options;
  const log = options.log ?? ((line: string) => console.error(line));
  const delivered = new Map<string, number>();
  // One catch-up per source at a time; a later version asked for meanwhile is caught up after.
  const catching = new Map<string, Promise<void>>();
  const wanted = new Map<string, number>();

  const deliver = (sourceId: string, version: number, data: string) => {
    if (version <= (delivered.get(sourceId) ?? 0)) return;
    delivered.set(sourceId, version);
    options.send(data);
  };
  const reload = (sourceId: string, version: number) =>
    deliver(sourceId, version, JSON.stringify({ source: sourceId, version, reload: true }));

  const catchUp = (sourceId: string, version: number): Promise<void> => {
    wanted.set(sourceId, Math.max(version, wanted.get(sourceId) ?? 0));
    const running = catching.get(sourceId);
    if (running) return running;
    const run = (async () => {
      for (let rounds = 0; rounds < 20; rounds++) {
        const target = wanted.get(sourceId) ?? 0;
        const last = delivered.get(sourceId) ?? 0;
        if (target <= last) return;
        const changes = await changesSince(db, sourceId, last);
        if (changes === null) {
          // Versions no longer kept: browsers read the list again rather than miss a change.
          reload(sourceId, target);
          return;
        }
        for (const change of changes) {
          deliver(
            sourceId,
            change.version,
            changeMessage(sourceId, change.version, change.payload),
          );
        }
        // Not visible yet (its transaction commits as the word arrives): asked again shortly.
        if ((changes.at(-1)?.version ?? last) < target) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      reload(sourceId, wanted.get(sourceId) ?? 0);
    })()
      .catch((error: unknown) => {
        log(`[watch] could not read the copy's changes: ${message(error)}`);
      })
      .finally(() => catching.delete(sourceId));
    catching.set(sourceId, run);
    return run;
  };

  const resync = async () => {
    const versions = await sourceVersions(db);
    for (const [sourceId, version] of versions) {
      if (!delivered.has(sourceId)) delivered.set(sourceId, version);
      else void catchUp(sourceId, version);
    }
  };

  let channel: Channel | null = null;
  let wasDown = false;
  if (options.listen) {
    void options
      .listen({
        message(payload) {
          try {
            const parsed = JSON.parse(payload) as { source?: unknown; version?: unknown };
            if (typeof parsed.source === 'string' && typeof parsed.version === 'number') {
              void catchUp(parsed.source, parsed.version);
            }
          } catch {
            // Not a word of ours.
          }
        },
        link(up) {
          // Back after a loss: what other replicas changed meanwhile is read from the copy.
          if (up && wasDown) void resync().catch(() => {});
          wasDown = !up;
        },
      })
      .then((opened) => {
        channel = opened;
      })
      .catch((error: unknown) => {
        log(`[watch] could not listen for the copy's changes: ${message(error)}`);
      });
  }

  return {
    local(change) {
      if (change.version === null) return;
      const payload = JSON.stringify({
        units: change.units.map((unit) => ({ id: unit.id, wire: unit.wire })),
        removed: change.removed,
      });
      if ((delivered.get(change.sourceId) ?? 0) === change.version - 1) {
        deliver(
          change.sourceId,
          change.version,
          changeMessage(change.sourceId, change.version, payload),
        );
      } else void catchUp(change.sourceId, change.version);
      // The other replicas read it from the copy; a word lost here is caught up at the next one.
      channel
        ?.notify([JSON.stringify({ source: change.sourceId, version: change.version })])
        .catch(() => {});
    },
    versions: () => Object.fromEntries(delivered),
    resync,
    async close() {
      await channel?.close();
    },
  };
}
