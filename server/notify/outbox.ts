// The notifications' outbox in the database (both engines): what is owed (notify_items, one row
// per question, route, receiver and occasion), grouped into messages (notify_messages) that any
// replica claims, sends and records. Times are passed in, never read from the database's clock,
// so one clock rules the whole notifier (and tests move it).
import type { Db, Queryable } from '../db/engine';
import type { Owed } from './plan';

const at = (ms: number) => new Date(ms).toISOString();
const ms = (value: Date | string) => new Date(value).getTime();

/** Writes what is owed; a row already there (another pass, replica or life) stays as it was. */
export async function recordOwed(
  db: Queryable,
  owed: readonly Owed[],
  now: number,
): Promise<number> {
  if (owed.length === 0) return 0;
  const rows = await db.query<{ n: number }>(
    `WITH added AS (
       INSERT INTO notify_items (source_id, question_id, route, receiver, occasion, group_key, created_at)
       SELECT o.s, o.q, o.r, o.v, o.o, o.g, $7::timestamptz
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
              AS o(s, q, r, v, o, g)
       ON CONFLICT DO NOTHING
       RETURNING 1)
     SELECT count(*)::int AS n FROM added`,
    [
      owed.map((o) => o.sourceId),
      owed.map((o) => o.questionId),
      owed.map((o) => o.route),
      owed.map((o) => o.receiver),
      owed.map((o) => o.occasion),
      owed.map((o) => o.groupKey),
      at(now),
    ],
  );
  return Number(rows[0]?.n ?? 0);
}

export interface WaitingGroup {
  route: string;
  receiver: string;
  groupKey: string;
  firstWaitingAt: number;
  lastSentAt: number | null;
}

/** Groups with items not yet in a message. */
export async function waitingGroups(db: Queryable): Promise<WaitingGroup[]> {
  const rows = await db.query<{
    route: string;
    receiver: string;
    group_key: string;
    first_at: Date | string;
    last_sent_at: Date | string | null;
  }>(
    `SELECT i.route, i.receiver, i.group_key, min(i.created_at) AS first_at, g.last_sent_at
       FROM notify_items i
       LEFT JOIN notify_groups g
         ON g.route = i.route AND g.receiver = i.receiver AND g.group_key = i.group_key
      WHERE i.message_id IS NULL
      GROUP BY i.route, i.receiver, i.group_key, g.last_sent_at`,
  );
  return rows.map((row) => ({
    route: row.route,
    receiver: row.receiver,
    groupKey: row.group_key,
    firstWaitingAt: ms(row.first_at),
    lastSentAt: row.last_sent_at === null ? null : ms(row.last_sent_at),
  }));
}

/**
 * Gathers a group's waiting items into one message, under the group's row lock: two replicas
 * batching at once make one message, and `stillDue` is asked again with what the lock sees.
 * Returns the message's id, or null when nothing was batched.
 */
export async function batchGroup(
  db: Db,
  group: Pick<WaitingGroup, 'route' | 'receiver' | 'groupKey'>,
  now: number,
  stillDue: (lastSentAt: number | null) => boolean,
): Promise<number | null> {
  return db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO notify_groups (route, receiver, group_key) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING`,
      [group.route, group.receiver, group.groupKey],
    );
    const [locked] = await tx.query<{ last_sent_at: Date | string | null }>(
      `SELECT last_sent_at FROM notify_groups
        WHERE route = $1 AND receiver = $2 AND group_key = $3 FOR UPDATE`,
      [group.route, group.receiver, group.groupKey],
    );
    const last = locked?.last_sent_at ? ms(locked.last_sent_at) : null;
    if (!stillDue(last)) return null;
    const occasion = group.groupKey.split('|')[0] ?? 'new';
    const [message] = await tx.query<{ id: number | string }>(
      `INSERT INTO notify_messages (route, receiver, group_key, occasion, next_at, created_at)
       VALUES ($1, $2, $3, $4, $5::timestamptz, $5::timestamptz) RETURNING id`,
      [group.route, group.receiver, group.groupKey, occasion, at(now)],
    );
    const id = Number(message?.id);
    const taken = await tx.query(
      `UPDATE notify_items SET message_id = $4
        WHERE route = $1 AND receiver = $2 AND group_key = $3 AND message_id IS NULL
        RETURNING 1`,
      [group.route, group.receiver, group.groupKey, id],
    );
    if (taken.length === 0) {
      await tx.query('DELETE FROM notify_messages WHERE id = $1', [id]);
      return null;
    }
    await tx.query(
      `UPDATE notify_groups SET last_sent_at = $4::timestamptz
        WHERE route = $1 AND receiver = $2 AND group_key = $3`,
      [group.route, group.receiver, group.groupKey, at(now)],
    );
    return id;
  });
}

export interface ClaimedMessage {
  id: number;
  route: string;
  receiver: string;
  occasion: string;
  attempts: number;
  createdAt: number;
}

/**
 * Takes up to `limit` messages due now for this replica: each is leased (`next_at` moved past the
 * lease) in the same transaction that locked it, skipping rows another replica holds, so two
 * replicas never send one message at once; a replica that dies mid-send leaves its lease to run
 * out, and the message is sent again under the same id (receivers can drop the repeat by it).
 */
export async function claimDue(
  db: Db,
  now: number,
  leaseMs: number,
  limit: number,
): Promise<ClaimedMessage[]> {
  return db.transaction(async (tx) => {
    const rows = await tx.query<{
      id: number | string;
      route: string;
      receiver: string;
      occasion: string;
      attempts: number;
      created_at: Date | string;
    }>(
      `UPDATE notify_messages SET next_at = $2::timestamptz, attempts = attempts + 1
        WHERE id IN (
          SELECT id FROM notify_messages
           WHERE status = 'pending' AND next_at <= $1::timestamptz
           ORDER BY next_at, id
           LIMIT $3
           FOR UPDATE SKIP LOCKED)
        RETURNING id, route, receiver, occasion, attempts, created_at`,
      [at(now), at(now + leaseMs), limit],
    );
    return rows.map((row) => ({
      id: Number(row.id),
      route: row.route,
      receiver: row.receiver,
      occasion: row.occasion,
      attempts: Number(row.attempts),
      createdAt: ms(row.created_at),
    }));
  });
}

export interface MessageQuestion {
  sourceId: string;
  questionId: string;
  kind: string;
  asked: string;
  agent: string | null;
  user: string | null;
  tool: string | null;
  tags: string[];
  expiresAt: string | null;
  open: boolean;
  claimed: boolean;
  /** Its quick answers (server/watch/wire.ts formatChoices); none when omitted. */
  choices?: string[];
}

/** The questions of a message as they are now: still open? claimed? */
export async function messageQuestions(
  db: Queryable,
  messageId: number,
  now: number,
): Promise<MessageQuestion[]> {
  const rows = await db.query<{
    source_id: string;
    question_id: string;
    kind: string;
    asked: string;
    agent: string | null;
    user_id: string | null;
    tool: string | null;
    tags: unknown;
    expires_at: Date | string | null;
    choices: unknown;
    open: boolean;
    claimed: boolean;
  }>(
    `SELECT w.source_id, w.question_id, w.kind, w.asked, w.agent, w.user_id, w.tool, w.tags,
            w.expires_at, w.choices,
            (w.closed_seen IS NULL AND w.status = 'pending'
              AND (w.expires_at IS NULL OR w.expires_at > $2::timestamptz)) AS open,
            EXISTS (SELECT 1 FROM claims c
                     WHERE c.source_id = w.source_id AND c.expires_at > $2::timestamptz
                       AND (c.question_id = w.question_id
                            OR c.question_id = w.source_id || ':' || w.question_id)) AS claimed
       FROM notify_items i
       JOIN watched_questions w ON w.source_id = i.source_id AND w.question_id = i.question_id
      WHERE i.message_id = $1
      ORDER BY w.first_seen, w.question_id`,
    [messageId, at(now)],
  );
  return rows.map((row) => {
    const tags = typeof row.tags === 'string' ? JSON.parse(row.tags) : row.tags;
    const choices = typeof row.choices === 'string' ? JSON.parse(row.choices) : row.choices;
    return {
      sourceId: row.source_id,
      questionId: row.question_id,
      kind: row.kind,
      asked: row.asked,
      agent: row.agent,
      user: row.user_id,
      tool: row.tool,
      tags: Array.isArray(tags) ? (tags as string[]) : [],
      expiresAt: row.expires_at === null ? null : new Date(row.expires_at).toISOString(),
      open: row.open,
      claimed: row.claimed,
      choices: Array.isArray(choices) ? (choices as string[]) : [],
    };
  });
}

export type FinalStatus = 'sent' | 'failed' | 'dropped';

/** Records a message's end; only the holder of the attempt it names may (a stale one changes nothing). */
export async function finishMessage(
  db: Queryable,
  id: number,
  attempt: number,
  status: FinalStatus,
  now: number,
  error: string | null = null,
): Promise<void> {
  await db.query(
    `UPDATE notify_messages SET status = $3, done_at = $4::timestamptz, last_error = $5
      WHERE id = $1 AND attempts = $2 AND status = 'pending'`,
    [id, attempt, status, at(now), error],
  );
}

export async function retryMessage(
  db: Queryable,
  id: number,
  attempt: number,
  nextAt: number,
  error: string,
): Promise<void> {
  await db.query(
    `UPDATE notify_messages SET next_at = $3::timestamptz, last_error = $4
      WHERE id = $1 AND attempts = $2 AND status = 'pending'`,
    [id, attempt, at(nextAt), error],
  );
}

export interface DeliveryRow {
  id: number;
  route: string;
  receiver: string;
  occasion: string;
  status: string;
  attempts: number;
  questions: number;
  createdAt: string;
  doneAt: string | null;
  lastError: string | null;
}

/** The operator's view: the newest messages, of one status or all. */
export async function listDeliveries(
  db: Queryable,
  status: string | null,
  limit: number,
): Promise<DeliveryRow[]> {
  const rows = await db.query<{
    id: number | string;
    route: string;
    receiver: string;
    occasion: string;
    status: string;
    attempts: number;
    questions: number | string;
    created_at: Date | string;
    done_at: Date | string | null;
    last_error: string | null;
  }>(
    `SELECT m.*, (SELECT count(*) FROM notify_items i WHERE i.message_id = m.id) AS questions
       FROM notify_messages m
      WHERE $1::text IS NULL OR m.status = $1
      ORDER BY m.created_at DESC, m.id DESC
      LIMIT $2`,
    [status, limit],
  );
  return rows.map((row) => ({
    id: Number(row.id),
    route: row.route,
    receiver: row.receiver,
    occasion: row.occasion,
    status: row.status,
    attempts: Number(row.attempts),
    questions: Number(row.questions),
    createdAt: new Date(row.created_at).toISOString(),
    doneAt: row.done_at === null ? null : new Date(row.done_at).toISOString(),
    lastError: row.last_error,
  }));
}

/** Messages per receiver and status, for /metrics (every replica's, from the database). */
export async function deliveryCounts(
  db: Queryable,
): Promise<{ receiver: string; status: string; count: number }[]> {
  const rows = await db.query<{ receiver: string; status: string; n: number | string }>(
    'SELECT receiver, status, count(*) AS n FROM notify_messages GROUP BY receiver, status',
  );
  return rows.map((row) => ({ receiver: row.receiver, status: row.status, count: Number(row.n) }));
}

/** Open questions and live claims, as the routing pass reads them. */
export async function liveClaims(db: Queryable, now: number): Promise<Set<string>> {
  const rows = await db.query<{ source_id: string; question_id: string }>(
    'SELECT source_id, question_id FROM claims WHERE expires_at > $1::timestamptz',
    [at(now)],
  );
  return new Set(rows.map((row) => `${row.source_id}\n${row.question_id}`));
}
