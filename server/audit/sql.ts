// The audit trail as the portal server keeps it: every action on a question that passes through
// the server is recorded here, by the server, with the reviewer the identity rules name. The
// attempt is written before the action is forwarded and its outcome after; an attempt that cannot
// be written stops the action (the reviewer's answer stays in their form), so an answer the
// upstream accepted is never missing from the trail. The logic is server/audit/core.ts (the static
// demo's Service Worker runs it too); this file keeps it in PostgreSQL.

import type { Db } from '../db/engine';
import { message } from '../lib/message';
import { type Audit, type AuditCoreOptions, createAuditCore } from './core';
import {
  answerHashKey,
  insertAttempts,
  insertOutcome,
  listEntries,
  pruneOlderThan,
} from './queries';
import type { TrailStore } from './types';

export interface AuditOptions extends Omit<AuditCoreOptions, 'trail' | 'hashKey'> {
  db: Db;
  /** AUDIT_HASH_KEY; without it the key the database keeps for this deployment. */
  hashKey?: string | null;
}

/** The trail in the portal's database (embedded PostgreSQL, or DATABASE_URL's). */
export function sqlTrail(db: Db): TrailStore {
  return {
    insertAttempts: (attempts) => insertAttempts(db, attempts),
    insertOutcome: (outcome) => insertOutcome(db, outcome),
    listEntries: (filter, page) => listEntries(db, filter, page),
  };
}

export function createAudit(options: AuditOptions): Audit {
  const { db, hashKey, ...rest } = options;
  let key: Promise<Uint8Array<ArrayBuffer>> | null = null;
  const loadKey = () => {
    key ??= hashKey ? Promise.resolve(new TextEncoder().encode(hashKey)) : answerHashKey(db);
    // A failed read is tried again on the next answer, not remembered.
    key.catch(() => {
      key = null;
    });
    return key;
  };
  return createAuditCore({
    nextTask: () => new Promise((resolve) => setImmediate(resolve)),
    ...rest,
    hashKey: loadKey,
    trail: sqlTrail(db),
  });
}

/** What else is kept no longer than the trail (AUDIT_RETENTION_DAYS): rows removed, by name. */
export interface RetentionTask {
  /** For the log line: `closed questions`. */
  what: string;
  prune: (days: number) => Promise<number>;
}

/**
 * Prunes entries past `days` now and once a day after, and with them each of `also`; returns the
 * stop function.
 */
export function scheduleRetention(
  db: Db,
  days: number,
  log: (line: string) => void = (line) => console.error(line),
  also: readonly RetentionTask[] = [],
): () => void {
  const tasks: RetentionTask[] = [
    { what: 'entries', prune: (older) => pruneOlderThan(db, older) },
    ...also,
  ];
  const prune = () =>
    Promise.all(
      tasks.map((task) =>
        task.prune(days).then(
          (removed) => {
            if (removed > 0) log(`[audit] removed ${removed} ${task.what} older than ${days} days`);
          },
          (error) => log(`[audit] retention could not prune ${task.what}: ${message(error)}`),
        ),
      ),
    );
  void prune();
  const timer = setInterval(prune, 86_400_000);
  timer.unref();
  return () => clearInterval(timer);
}
