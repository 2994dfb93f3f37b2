// The watcher's copy of each system, in the trail's database so every replica serves the same
// lists and a restart neither forgets nor re-announces a question: the records as the system
// sent them (watch_units), each source's list order and version (watch_sources), the changes
// browsers are told of (watch_changes, the newest few per source), and what the server knows of
// every question it has seen (watched_questions: first seen, closed seen).
import type { Db, Queryable } from '../db/engine';
import type { QuestionFacts, Unit } from './wire';

/** Changes kept per source for browsers catching up (older ones: the browser reads the list). */
export const CHANGES_KEPT = 200;

export interface SourceState {
  sourceId: string;
  kind: string;
  version: number;
  order: string[];
  pendingOrder: string[] | null;
  truncated: boolean;
  readAt: string | null;
  /** The system's clock minus the server's when it was last read (its `Date` header). */
  clockOffsetMs: number;
  error: string | null;
  errorAt: string | null;
}

interface SourceRow {
  source_id: string;
  kind: string;
  version: number | string;
  list_order: string;
  pending_order: string | null;
  truncated: boolean;
  read_at: Date | string | null;
  clock_offset_ms: number | string;
  error: string | null;
  error_at: Date | string | null;
}

const iso = (value: Date | string | null) =>
  value === null ? null : new Date(value).toISOString();

function toState(row: SourceRow): SourceState {
  return {
    sourceId: row.source_id,
    kind: row.kind,
    version: Number(row.version),
    order: JSON.parse(row.list_order) as string[],
    pendingOrder: row.pending_order === null ? null : (JSON.parse(row.pending_order) as string[]),
    truncated: row.truncated,
    readAt: iso(row.read_at),
    clockOffsetMs: Number(row.clock_offset_ms),
    error: row.error,
    errorAt: iso(row.error_at),
  };
}

export async function sourceState(db: Queryable, sourceId: string): Promise<SourceState | null> {
  const [row] = await db.query<SourceRow>('SELECT * FROM watch_sources WHERE source_id = $1', [
    sourceId,
  ]);
  return row ? toState(row) : null;
}

export async function sourceStates(db: Queryable): Promise<SourceState[]> {
  const rows = await db.query<SourceRow>('SELECT * FROM watch_sources ORDER BY source_id');
  return rows.map(toState);
}

/** Just the versions: what a replica checks before serving its cached lists. */
export async function sourceVersions(db: Queryable): Promise<Map<string, number>> {
  const rows = await db.query<{ source_id: string; version: number | string }>(
    'SELECT source_id, version FROM watch_sources',
  );
  return new Map(rows.map((row) => [row.source_id, Number(row.version)]));
}

export interface StoredUnit {
  id: string;
  wire: string;
  summary: string | null;
}

export async function loadUnits(db: Queryable, sourceId: string): Promise<StoredUnit[]> {
  const rows = await db.query<{ unit_id: string; wire: string; summary: string | null }>(
    'SELECT unit_id, wire, summary FROM watch_units WHERE source_id = $1',
    [sourceId],
  );
  return rows.map((row) => ({ id: row.unit_id, wire: row.wire, summary: row.summary }));
}

export async function recordError(db: Queryable, sourceId: string, kind: string, error: string) {
  await db.query(
    `INSERT INTO watch_sources (source_id, kind, error, error_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (source_id) DO UPDATE SET error = EXCLUDED.error, error_at = EXCLUDED.error_at`,
    [sourceId, kind, error.slice(0, 500)],
  );
}

/** What one application of a read changed: what browsers and the server's own listeners hear. */
export interface AppliedChange {
  sourceId: string;
  /** The source's version after the change; null when nothing changed. */
  version: number | null;
  /** Records new or changed, as the system sent them. */
  units: StoredUnit[];
  /** Records gone from the system's list. */
  removed: string[];
  /** Questions seen for the first time. */
  opened: WatchedQuestion[];
  /** Questions no longer pending (answered, expired, cancelled, gone). */
  closed: WatchedQuestion[];
}

export interface WatchedQuestion extends QuestionFacts {
  sourceId: string;
  kind: string;
  unitId: string;
  firstSeen: string;
  closedSeen: string | null;
}

interface QuestionRow {
  source_id: string;
  question_id: string;
  kind: string;
  unit_id: string;
  asked: string;
  agent: string | null;
  user_id: string | null;
  tool: string | null;
  tags: unknown;
  expires_at: Date | string | null;
  status: string;
  choices: unknown;
  first_seen: Date | string;
  closed_seen: Date | string | null;
}

const jsonList = (value: unknown): string[] => {
  const list = typeof value === 'string' ? JSON.parse(value) : value;
  return Array.isArray(list) ? (list as string[]) : [];
};

function toQuestion(row: QuestionRow): WatchedQuestion {
  const tags = typeof row.tags === 'string' ? JSON.parse(row.tags) : row.tags;
  return {
    sourceId: row.source_id,
    questionId: row.question_id,
    kind: row.kind,
    unitId: row.unit_id,
    asked: row.asked,
    agent: row.agent,
    user: row.user_id,
    tool: row.tool,
    tags: Array.isArray(tags) ? (tags as string[]) : [],
    expiresAt: iso(row.expires_at),
    status: row.status,
    choices: jsonList(row.choices),
    firstSeen: iso(row.first_seen) as string,
    closedSeen: iso(row.closed_seen),
  };
}

export interface ApplyInput {
  sourceId: string;
  kind: string;
  /** The database's time when the read began: records changed since (a write's re-read) win. */
  readStartedAt: string;
  /** Every record the read returned (a whole read), or the one re-read after a write. */
  units: Unit[];
  /** What the copy held of these records before (id → wire), as the caller last knew it. */
  previous: ReadonlyMap<string, string>;
  /** Records the read found gone (by id). */
  removed: string[];
  /** A whole read (not one record re-read after a write): sets the list's order and read time. */
  whole?: {
    order: string[];
    pendingOrder: string[] | null;
    truncated: boolean;
    clockOffsetMs: number;
  };
}

const sameFacts = (row: QuestionRow, facts: QuestionFacts) =>
  row.asked === facts.asked &&
  row.agent === facts.agent &&
  row.user_id === facts.user &&
  row.tool === facts.tool &&
  JSON.stringify(typeof row.tags === 'string' ? JSON.parse(row.tags) : row.tags) ===
    JSON.stringify(facts.tags) &&
  iso(row.expires_at) === facts.expiresAt &&
  row.status === facts.status &&
  JSON.stringify(jsonList(row.choices)) === JSON.stringify(facts.choices ?? []);

/**
 * Writes a read into the copy in one transaction: records new or changed since the copy last had
 * them (a record re-read after a write since the read began is kept as that write left it),
 * records gone, the facts of their questions (first seen on insert; closed seen when one stops
 * being pending or leaves its record), the version and the change browsers are told of.
 * Returns what changed. Only changed records cost work: an unchanged list writes nothing.
 */
export async function applyRead(db: Db, input: ApplyInput): Promise<AppliedChange> {
  return db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO watch_sources (source_id, kind) VALUES ($1, $2) ON CONFLICT (source_id) DO NOTHING`,
      [input.sourceId, input.kind],
    );
    // One writer of a source at a time (the watcher, or a replica re-reading after a write).
    const [locked] = await tx.query<SourceRow>(
      'SELECT * FROM watch_sources WHERE source_id = $1 FOR UPDATE',
      [input.sourceId],
    );
    const before = locked ? toState(locked) : null;
    const candidates = input.units.filter((unit) => input.previous.get(unit.id) !== unit.wire);
    const touched = [...candidates.map((u) => u.id), ...input.removed];
    const newerRows =
      touched.length === 0
        ? []
        : await tx.query<{ unit_id: string }>(
            `SELECT unit_id FROM watch_units WHERE source_id = $1 AND unit_id = ANY($2::text[])
               AND changed_at > $3::timestamptz`,
            [input.sourceId, touched, input.readStartedAt],
          );
    const newer = new Set(newerRows.map((row) => row.unit_id));
    const changedUnits = candidates.filter((unit) => !newer.has(unit.id));
    const removed = input.removed.filter((id) => !newer.has(id));

    if (changedUnits.length > 0) {
      await tx.query(
        `INSERT INTO watch_units (source_id, unit_id, wire, summary, changed_at)
         SELECT $1, u.id, u.wire, u.summary, now()
           FROM unnest($2::text[], $3::text[], $4::text[]) AS u(id, wire, summary)
         ON CONFLICT (source_id, unit_id) DO UPDATE
           SET wire = EXCLUDED.wire, summary = EXCLUDED.summary, changed_at = EXCLUDED.changed_at`,
        [
          input.sourceId,
          changedUnits.map((u) => u.id),
          changedUnits.map((u) => u.wire),
          changedUnits.map((u) => u.summary ?? null),
        ],
      );
    }
    // A Bilby conversation's list entry can change with no change to its detail: kept as well.
    const summaryOnly = input.units.filter(
      (unit) => unit.summary !== undefined && !candidates.includes(unit),
    );
    if (summaryOnly.length > 0) {
      await tx.query(
        `UPDATE watch_units w SET summary = u.summary
           FROM unnest($2::text[], $3::text[]) AS u(id, summary)
          WHERE w.source_id = $1 AND w.unit_id = u.id AND w.summary IS DISTINCT FROM u.summary`,
        [input.sourceId, summaryOnly.map((u) => u.id), summaryOnly.map((u) => u.summary ?? null)],
      );
    }
    if (removed.length > 0) {
      await tx.query('DELETE FROM watch_units WHERE source_id = $1 AND unit_id = ANY($2::text[])', [
        input.sourceId,
        removed,
      ]);
    }

    // Questions: the facts of the records that changed, and of those now gone.
    const touchedUnits = [...changedUnits.map((u) => u.id), ...removed];
    const known =
      touchedUnits.length === 0
        ? []
        : await tx.query<QuestionRow>(
            'SELECT * FROM watched_questions WHERE source_id = $1 AND unit_id = ANY($2::text[])',
            [input.sourceId, touchedUnits],
          );
    const knownById = new Map(known.map((row) => [row.question_id, row]));
    const facts = changedUnits.flatMap((unit) =>
      unit.questions.map((q) => ({ ...q, unitId: unit.id })),
    );
    const seen = new Set(facts.map((q) => q.questionId));
    const fresh = facts.filter((q) => !knownById.has(q.questionId));
    const changedFacts = facts.filter((q) => {
      const row = knownById.get(q.questionId);
      return row !== undefined && !sameFacts(row, q);
    });
    const opened: WatchedQuestion[] = [];
    const closed: WatchedQuestion[] = [];
    if (fresh.length > 0) {
      const rows = await tx.query<QuestionRow>(
        `INSERT INTO watched_questions
           (source_id, question_id, kind, unit_id, asked, agent, user_id, tool, tags, expires_at,
            status, choices, closed_seen)
         SELECT $1, q.id, $2, q.unit, q.asked, q.agent, q.usr, q.tool, q.tags::jsonb,
                q.expires::timestamptz, q.status, q.choices::jsonb,
                CASE WHEN q.status = 'pending' THEN NULL ELSE now() END
           FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                       $9::text[], $10::text[], $11::text[], $12::text[])
                AS q(id, unit, asked, agent, usr, tool, tags, expires, status, choices)
         ON CONFLICT (source_id, question_id) DO NOTHING
         RETURNING *`,
        [
          input.sourceId,
          input.kind,
          fresh.map((q) => q.questionId),
          fresh.map((q) => q.unitId),
          fresh.map((q) => q.asked),
          fresh.map((q) => q.agent),
          fresh.map((q) => q.user),
          fresh.map((q) => q.tool),
          fresh.map((q) => JSON.stringify(q.tags)),
          fresh.map((q) => q.expiresAt),
          fresh.map((q) => q.status),
          fresh.map((q) => JSON.stringify(q.choices ?? [])),
        ],
      );
      for (const row of rows.map(toQuestion)) {
        // Seen first already closed (answered before the watcher ever read it) is no news.
        if (row.status === 'pending') opened.push(row);
      }
    }
    if (changedFacts.length > 0) {
      const rows = await tx.query<QuestionRow>(
        `UPDATE watched_questions w
            SET asked = q.asked, agent = q.agent, user_id = q.usr, tool = q.tool,
                tags = q.tags::jsonb, expires_at = q.expires::timestamptz, status = q.status,
                choices = q.choices::jsonb, unit_id = q.unit,
                closed_seen = CASE WHEN q.status = 'pending' THEN NULL
                                   ELSE coalesce(w.closed_seen, now()) END
           FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                       $8::text[], $9::text[], $10::text[], $11::text[])
                AS q(id, unit, asked, agent, usr, tool, tags, expires, status, choices)
          WHERE w.source_id = $1 AND w.question_id = q.id
          RETURNING w.*`,
        [
          input.sourceId,
          changedFacts.map((q) => q.questionId),
          changedFacts.map((q) => q.unitId),
          changedFacts.map((q) => q.asked),
          changedFacts.map((q) => q.agent),
          changedFacts.map((q) => q.user),
          changedFacts.map((q) => q.tool),
          changedFacts.map((q) => JSON.stringify(q.tags)),
          changedFacts.map((q) => q.expiresAt),
          changedFacts.map((q) => q.status),
          changedFacts.map((q) => JSON.stringify(q.choices ?? [])),
        ],
      );
      for (const row of rows) {
        const before = knownById.get(row.question_id);
        if (before && before.closed_seen === null && row.status !== 'pending') {
          closed.push(toQuestion(row));
        }
      }
    }
    // Open questions of the changed or gone records that the read no longer lists (a Bilby call
    // answered, a record no longer listed).
    const missing = known.filter((row) => row.closed_seen === null && !seen.has(row.question_id));
    if (missing.length > 0) {
      const rows = await tx.query<QuestionRow>(
        `UPDATE watched_questions SET closed_seen = now(),
                status = CASE WHEN status = 'pending' THEN 'closed' ELSE status END
          WHERE source_id = $1 AND question_id = ANY($2::text[]) AND closed_seen IS NULL
          RETURNING *`,
        [input.sourceId, missing.map((row) => row.question_id)],
      );
      closed.push(...rows.map(toQuestion));
    }

    const orderChanged =
      input.whole !== undefined &&
      (JSON.stringify(input.whole.order) !== JSON.stringify(before?.order ?? []) ||
        JSON.stringify(input.whole.pendingOrder) !== JSON.stringify(before?.pendingOrder ?? null) ||
        input.whole.truncated !== before?.truncated);
    const anything =
      changedUnits.length > 0 || removed.length > 0 || orderChanged || before?.version === 0;
    let version: number | null = null;
    if (anything) {
      const [row] = await tx.query<{ version: number | string }>(
        `UPDATE watch_sources SET version = version + 1 WHERE source_id = $1 RETURNING version`,
        [input.sourceId],
      );
      version = Number(row?.version);
      const payload = JSON.stringify({
        units: changedUnits.map((u) => ({ id: u.id, wire: u.wire })),
        removed,
      });
      await tx.query(
        'INSERT INTO watch_changes (source_id, version, payload) VALUES ($1, $2, $3)',
        [input.sourceId, version, payload],
      );
      await tx.query('DELETE FROM watch_changes WHERE source_id = $1 AND version <= $2', [
        input.sourceId,
        version - CHANGES_KEPT,
      ]);
    }
    if (input.whole) {
      await tx.query(
        `UPDATE watch_sources SET list_order = $2, pending_order = $3, truncated = $4,
                clock_offset_ms = $5, read_at = now(), error = NULL, error_at = NULL
          WHERE source_id = $1`,
        [
          input.sourceId,
          JSON.stringify(input.whole.order),
          input.whole.pendingOrder === null ? null : JSON.stringify(input.whole.pendingOrder),
          input.whole.truncated,
          Math.round(input.whole.clockOffsetMs),
        ],
      );
    }
    return {
      sourceId: input.sourceId,
      version,
      units: changedUnits.map((u) => ({ id: u.id, wire: u.wire, summary: u.summary ?? null })),
      removed,
      opened,
      closed,
    };
  });
}

/** The changes after `version` (oldest first); null when some are no longer kept. */
export async function changesSince(
  db: Queryable,
  sourceId: string,
  version: number,
): Promise<{ version: number; payload: string }[] | null> {
  const rows = await db.query<{ version: number | string; payload: string }>(
    'SELECT version, payload FROM watch_changes WHERE source_id = $1 AND version > $2 ORDER BY version',
    [sourceId, version],
  );
  const out = rows.map((row) => ({ version: Number(row.version), payload: row.payload }));
  if (out.length > 0 && out[0]?.version !== version + 1) return null;
  return out;
}

/**
 * Open questions, for the server's own figures (metrics, notifications); with `recent`, only those
 * first seen after `seenAfter` (the database's time) or expiring before `expiringBefore`.
 */
export async function openQuestions(
  db: Queryable,
  recent?: { seenAfter: string; expiringBefore: string | null },
): Promise<WatchedQuestion[]> {
  const rows = recent
    ? await db.query<QuestionRow>(
        `SELECT * FROM watched_questions
          WHERE closed_seen IS NULL
            AND (first_seen > $1::timestamptz OR expires_at <= $2::timestamptz)
          ORDER BY first_seen`,
        [recent.seenAfter, recent.expiringBefore],
      )
    : await db.query<QuestionRow>(
        'SELECT * FROM watched_questions WHERE closed_seen IS NULL ORDER BY first_seen',
      );
  return rows.map(toQuestion);
}

/** What the server knows of these questions (the Activity page names them by what they asked). */
export async function questionsByIds(
  db: Queryable,
  keys: readonly { sourceId: string; questionId: string }[],
): Promise<WatchedQuestion[]> {
  if (keys.length === 0) return [];
  const rows = await db.query<QuestionRow>(
    `SELECT w.* FROM watched_questions w
       JOIN unnest($1::text[], $2::text[]) AS k(source_id, question_id)
         ON w.source_id = k.source_id AND w.question_id = k.question_id`,
    [keys.map((k) => k.sourceId), keys.map((k) => k.questionId)],
  );
  return rows.map(toQuestion);
}

/**
 * Per watched system: questions waiting, the age of the oldest (seconds since first seen) and those
 * expiring within 10 minutes that nobody has claimed. A claim names a question as the inbox does
 * (`<source>:<id>` for Vertesia and Bilby), a watched question as its system does.
 */
export async function waitingFigures(
  db: Queryable,
): Promise<
  { sourceId: string; pending: number; oldestAgeSeconds: number; expiringUnclaimed: number }[]
> {
  const rows = await db.query<{
    source_id: string;
    pending: number | string;
    oldest: number | string | null;
    expiring: number | string;
  }>(
    `SELECT s.source_id,
            count(w.question_id) AS pending,
            extract(epoch FROM now() - min(w.first_seen)) AS oldest,
            count(w.question_id) FILTER (
              WHERE w.expires_at > now() AND w.expires_at <= now() + interval '10 minutes'
                AND NOT EXISTS (
                  SELECT 1 FROM claims c
                   WHERE c.source_id = w.source_id AND c.expires_at > now()
                     AND (c.question_id = w.question_id
                          OR c.question_id = w.source_id || ':' || w.question_id))
            ) AS expiring
       FROM watch_sources s
       LEFT JOIN watched_questions w
         ON w.source_id = s.source_id AND w.closed_seen IS NULL
      GROUP BY s.source_id
      ORDER BY s.source_id`,
  );
  return rows.map((row) => ({
    sourceId: row.source_id,
    pending: Number(row.pending),
    oldestAgeSeconds: row.oldest === null ? 0 : Math.max(0, Number(row.oldest)),
    expiringUnclaimed: Number(row.expiring),
  }));
}

/**
 * Removes the questions closed more than `days` ago (AUDIT_RETENTION_DAYS, with the trail's
 * entries): what a question asked is kept no longer than what was done with it. Open ones stay.
 */
export async function pruneClosedQuestions(
  db: Queryable,
  days: number,
  now = new Date(),
): Promise<number> {
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString();
  const removed = await db.query<{ question_id: string }>(
    `DELETE FROM watched_questions WHERE closed_seen IS NOT NULL AND closed_seen < $1::timestamptz
     RETURNING question_id`,
    [cutoff],
  );
  return removed.length;
}
