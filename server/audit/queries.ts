// The trail's rows in the database (both engines): written, read a page at a time, pruned, and
// the deployment's key of AUDIT_ANSWERS=hash. The trail's words and shapes are ./types.ts's.
import type { Db, Queryable } from '../db/engine';
import type { AuditAttempt, AuditEntry, AuditFilter } from './types';

export async function insertAttempts(db: Queryable, attempts: AuditAttempt[]): Promise<void> {
  if (attempts.length === 0) return;
  const values: unknown[] = [];
  const rows = attempts.map((a, index) => {
    values.push(
      a.at ?? null,
      a.requestId,
      a.reviewer,
      a.reviewerName,
      a.selfNamed ?? null,
      a.sourceId,
      a.sourceKind,
      a.questionId,
      a.action,
      a.answer,
      a.answerMode,
      a.answerBytes ?? null,
      a.answerSha256 ?? null,
    );
    const n = index * 13;
    const p = (i: number) => `$${n + i}`;
    return `(COALESCE(${p(1)}::timestamptz, now()), ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)}, ${p(9)}, ${p(10)}, ${p(11)}, ${p(12)}, ${p(13)})`;
  });
  await db.query(
    `INSERT INTO audit_entries
       (at, request_id, reviewer, reviewer_name, reviewer_self_named, source_id, source_kind,
        question_id, action, answer, answer_mode, answer_bytes, answer_sha256)
     VALUES ${rows.join(', ')}`,
    values,
  );
}

export async function insertOutcome(
  db: Queryable,
  outcome: { requestId: string; status: number; detail: string | null },
): Promise<void> {
  await db.query(
    `INSERT INTO audit_outcomes (request_id, status, detail) VALUES ($1, $2, $3)
     ON CONFLICT (request_id) DO NOTHING`,
    [outcome.requestId, outcome.status, outcome.detail],
  );
}

const SEARCHED = `(e.reviewer || chr(1) || e.question_id || chr(1) || left(coalesce(e.answer, ''), 500) ||
  chr(1) || coalesce(e.reviewer_name, ''))`;

/** `ILIKE` pattern finding `text` anywhere. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** At most this many questions found by what they asked take part in one search of the trail. */
const ASKED_MATCHES_MAX = 1000;

function where(
  filter: AuditFilter,
  before: number | null,
  asked: readonly { sourceId: string; questionId: string }[] = [],
): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (clause: (p: string) => string, value: unknown) => {
    params.push(value);
    clauses.push(clause(`$${params.length}`));
  };
  if (filter.sourceId) add((p) => `e.source_id = ${p}`, filter.sourceId);
  if (filter.questionIds?.length)
    add((p) => `e.question_id = ANY(${p}::text[])`, filter.questionIds);
  if (filter.reviewer) {
    // A part of the address or the name; the search index (which holds both) finds the rows,
    // the second test keeps those where the part is in the reviewer's address or name.
    add(
      (p) =>
        `${SEARCHED} ILIKE ${p} AND (e.reviewer ILIKE ${p} OR coalesce(e.reviewer_name, '') ILIKE ${p})`,
      containing(filter.reviewer),
    );
  }
  if (filter.action) add((p) => `e.action = ${p}`, filter.action);
  if (filter.from) add((p) => `e.at >= ${p}::timestamptz`, filter.from);
  if (filter.to) add((p) => `e.at < ${p}::timestamptz`, filter.to);
  if (filter.search) {
    // The expression of the trigram index (migration 4), as it is written there; or one of the
    // questions whose text matched (found first, through watched_questions' own index): the
    // question id picks the rows from its index, the pair keeps each system's own.
    const text = `${SEARCHED} ILIKE $${params.length + 1}`;
    params.push(containing(filter.search));
    if (asked.length > 0) {
      params.push(
        asked.map((q) => q.questionId),
        asked.map((q) => `${q.sourceId}\u0001${q.questionId}`),
      );
      const ids = `$${params.length - 1}`;
      const pairs = `$${params.length}`;
      clauses.push(
        `(${text} OR (e.question_id = ANY(${ids}::text[]) AND e.source_id || chr(1) || e.question_id = ANY(${pairs}::text[])))`,
      );
    } else clauses.push(text);
  }
  if (before !== null) add((p) => `e.id < ${p}`, before);
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

const SELECT = `SELECT e.id, e.at, e.request_id, e.reviewer, e.reviewer_name, e.reviewer_self_named,
    e.source_id, e.source_kind, e.question_id, e.action, e.answer, e.answer_mode, e.answer_bytes,
    e.answer_sha256, o.status, o.detail, w.asked
  FROM audit_entries e LEFT JOIN audit_outcomes o ON o.request_id = e.request_id
    LEFT JOIN watched_questions w ON w.source_id = e.source_id AND w.question_id = e.question_id`;

interface Row {
  id: number;
  at: Date | string;
  request_id: string;
  reviewer: string;
  reviewer_name: string | null;
  reviewer_self_named: boolean | null;
  source_id: string;
  source_kind: string;
  question_id: string;
  action: string;
  answer: string | null;
  answer_mode: string;
  answer_bytes: number | null;
  answer_sha256: string | null;
  status: number | null;
  detail: string | null;
  asked: string | null;
}

function toEntry(row: Row): AuditEntry {
  return {
    id: Number(row.id),
    at: new Date(row.at).toISOString(),
    requestId: row.request_id,
    reviewer: row.reviewer,
    reviewerName: row.reviewer_name,
    selfNamed: row.reviewer_self_named,
    sourceId: row.source_id,
    sourceKind: row.source_kind,
    questionId: row.question_id,
    asked: row.asked,
    action: row.action,
    answer: row.answer,
    answerMode: row.answer_mode,
    answerBytes: row.answer_bytes === null ? null : Number(row.answer_bytes),
    answerSha256: row.answer_sha256,
    status: row.status === null ? null : Number(row.status),
    detail: row.detail,
  };
}

/** How long one read of the trail may run before PostgreSQL stops it. */
export const READ_TIMEOUT_MS = 5000;

/** Newest first, `limit` at a time; `nextCursor` continues after the last one, null at the end. */
export async function listEntries(
  db: Queryable & { transaction?: Db['transaction'] },
  filter: AuditFilter,
  page: { cursor: number | null; limit: number },
): Promise<{ entries: AuditEntry[]; nextCursor: number | null }> {
  const read = async (q: Queryable) => {
    const asked = filter.search
      ? (
          await q.query<{ source_id: string; question_id: string }>(
            `SELECT source_id, question_id FROM watched_questions WHERE asked ILIKE $1 LIMIT ${ASKED_MATCHES_MAX}`,
            [containing(filter.search)],
          )
        ).map((row) => ({ sourceId: row.source_id, questionId: row.question_id }))
      : [];
    const { sql, params } = where(filter, page.cursor, asked);
    const select = `${SELECT} ${sql} ORDER BY e.id DESC LIMIT ${Math.floor(page.limit) + 1}`;
    return q.query<Row>(select, params);
  };
  const rows = db.transaction
    ? await db.transaction(async (tx) => {
        await tx.query(`SET LOCAL statement_timeout = ${READ_TIMEOUT_MS}`);
        return read(tx);
      })
    : await read(db);
  const entries = rows.slice(0, page.limit).map(toEntry);
  const last = entries.at(-1);
  return { entries, nextCursor: rows.length > page.limit && last ? last.id : null };
}

/**
 * Removes entries (and their outcomes) older than `days`; returns how many entries went. When
 * some did, the tables are rewritten (VACUUM FULL), so the removed answers are gone from the
 * data files and not only marked free; on the embedded engine the write-ahead log holding them
 * is moved past and checkpointed too (docs/audit.md says what remains where).
 */
export async function pruneOlderThan(
  db: Queryable & { engine?: string },
  days: number,
  now = new Date(),
): Promise<number> {
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString();
  const removed = await db.query<{ request_id: string }>(
    'DELETE FROM audit_entries WHERE at < $1::timestamptz RETURNING request_id',
    [cutoff],
  );
  const outcomes = await db.query<{ request_id: string }>(
    `DELETE FROM audit_outcomes o WHERE o.at < $1::timestamptz
       AND NOT EXISTS (SELECT 1 FROM audit_entries e WHERE e.request_id = o.request_id)
     RETURNING request_id`,
    [cutoff],
  );
  if (removed.length > 0 || outcomes.length > 0) await reclaim(db);
  return removed.length;
}

async function reclaim(db: Queryable & { engine?: string }): Promise<void> {
  await db.query('VACUUM FULL audit_entries');
  await db.query('VACUUM FULL audit_outcomes');
  if (db.engine !== 'embedded') return;
  // PostgreSQL's own WAL is its operator's (checkpoints, archiving); PGlite's is in DATA_DIR.
  for (let round = 0; round < 3; round++) {
    await db.query('SELECT pg_switch_wal()');
    await db.query('CHECKPOINT');
  }
}

/** The key of AUDIT_ANSWERS=hash: made once per deployment (32 random bytes) and kept. */
export async function answerHashKey(db: Queryable): Promise<Uint8Array<ArrayBuffer>> {
  const fresh = new Uint8Array(32);
  globalThis.crypto.getRandomValues(fresh);
  const hex = Array.from(fresh, (byte) => byte.toString(16).padStart(2, '0')).join('');
  await db.query(
    `INSERT INTO audit_keys (name, key) VALUES ('answer-hmac', $1) ON CONFLICT (name) DO NOTHING`,
    [hex],
  );
  const [row] = await db.query<{ key: string }>(
    `SELECT key FROM audit_keys WHERE name = 'answer-hmac'`,
  );
  if (!row) throw new Error('the answer hash key could not be kept');
  return Uint8Array.from(row.key.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
}
