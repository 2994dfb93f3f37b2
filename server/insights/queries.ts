// The Insights page's figures, computed in the database (PGlite or PostgreSQL, one SQL): the
// watcher's `watched_questions` (first seen, closed seen, what was asked) joined with the audit
// trail's first reviewer action on each question. docs/insights.md says what each counts.
import type { Db, Queryable } from '../db/engine';
import {
  type Count,
  EXPIRING_SOON_MINUTES,
  type Insights,
  type InsightsBucket,
  type InsightsFilter,
  type InsightsStore,
  MISSED_LIST,
  RESPONDING_ACTIONS,
  rankReviewers,
  TOP_KEYS,
} from './core';

/** A statement that runs longer is stopped (PostgreSQL; PGlite runs one at a time anyway). */
export const STATEMENT_TIMEOUT_MS = 10_000;

const ACTIONS_SQL = RESPONDING_ACTIONS.map((action) => `'${action}'`).join(', ');

/**
 * The first reviewer action on question `w` that its system did not refuse (a refusal: HTTP status
 * 0, no answer, or 400 and above; the expression of the partial index in migration.ts).
 */
const FIRST_RESPONSE = `
  SELECT min(e.at) AS at
    FROM audit_entries e
   WHERE e.question_id = w.question_id AND e.source_id = w.source_id
     AND e.action IN (${ACTIONS_SQL})
     AND NOT EXISTS (SELECT 1 FROM audit_outcomes o
                      WHERE o.request_id = e.request_id AND (o.status < 200 OR o.status >= 400))`;

/** Closed by its expiry: the system says so, or it left the list once its time had passed. */
const EXPIRED = `(w.status = 'expired' OR (w.status = 'closed' AND w.expires_at IS NOT NULL
  AND w.expires_at <= w.closed_seen))`;

class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** The questions' filters (system, tag, agent) on `w`, as SQL conditions. */
function questionFilters(filter: InsightsFilter, p: Params): string[] {
  const out: string[] = [];
  if (filter.sourceId) out.push(`w.source_id = ${p.add(filter.sourceId)}`);
  if (filter.tag) out.push(`w.tags @> jsonb_build_array(${p.add(filter.tag)}::text)`);
  if (filter.agent) out.push(`coalesce(w.agent, w.user_id) = ${p.add(filter.agent)}`);
  return out;
}

/** Questions first seen in the range, filtered. */
function inRange(filter: InsightsFilter, p: Params): string {
  return [
    `w.first_seen >= ${p.add(filter.from)}::timestamptz`,
    `w.first_seen < ${p.add(filter.to)}::timestamptz`,
    ...questionFilters(filter, p),
  ].join(' AND ');
}

const LABEL = { day: 'YYYY-MM-DD', hour: 'YYYY-MM-DD"T"HH24:00' } as const;

interface BucketRow {
  label: string | null;
  asked: number | null;
  responded: number | null;
  missed: number | null;
  closed_otherwise: number | null;
  waiting: number | null;
  median: number | null;
  p90: number | null;
}

function toBucket(row: BucketRow): Omit<InsightsBucket, 'label'> {
  const n = (value: number | null) => Number(value ?? 0);
  const s = (value: number | null) => (value === null ? null : Number(value));
  return {
    asked: n(row.asked),
    responded: n(row.responded),
    missed: n(row.missed),
    closedOtherwise: n(row.closed_otherwise),
    waiting: n(row.waiting),
    medianWaitSeconds: s(row.median),
    p90WaitSeconds: s(row.p90),
  };
}

async function buckets(db: Queryable, filter: InsightsFilter) {
  const p = new Params();
  const tz = p.add(filter.timeZone);
  const where = inRange(filter, p);
  const unit = `'${filter.bucket}'`;
  const from = p.add(filter.from);
  const to = p.add(filter.to);
  const rows = await db.query<BucketRow & { local: string | null; total: boolean }>(
    `WITH q AS (
       SELECT date_trunc(${unit}, w.first_seen AT TIME ZONE ${tz}) AS local,
              w.closed_seen IS NOT NULL AS closed, ${EXPIRED} AS expired,
              -- GREATEST skips NULLs: no action must stay no wait, not a wait of 0.
              CASE WHEN r.at IS NOT NULL
                THEN extract(epoch FROM greatest(r.at - w.first_seen, interval '0')) END AS wait
         FROM watched_questions w
         LEFT JOIN LATERAL (${FIRST_RESPONSE}) r ON true
        WHERE ${where}
     ), counted AS (
       SELECT local, GROUPING(local) = 1 AS total,
              count(*)::int AS asked,
              count(wait)::int AS responded,
              count(*) FILTER (WHERE wait IS NULL AND closed AND expired)::int AS missed,
              count(*) FILTER (WHERE wait IS NULL AND closed AND NOT expired)::int AS closed_otherwise,
              count(*) FILTER (WHERE wait IS NULL AND NOT closed)::int AS waiting,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY wait) AS median,
              percentile_cont(0.9) WITHIN GROUP (ORDER BY wait) AS p90
         FROM q GROUP BY ROLLUP (local)
     ), series AS (
       SELECT s AS local
         FROM generate_series(date_trunc(${unit}, ${from}::timestamptz AT TIME ZONE ${tz}),
                              ${to}::timestamptz AT TIME ZONE ${tz}, ('1 ' || ${unit})::interval) s
        WHERE s < ${to}::timestamptz AT TIME ZONE ${tz}
     )
     SELECT to_char(s.local, '${LABEL[filter.bucket]}') AS label, false AS total, c.asked,
            c.responded, c.missed, c.closed_otherwise, c.waiting, c.median, c.p90
       FROM series s LEFT JOIN counted c ON c.local = s.local AND NOT c.total
     UNION ALL
     SELECT NULL, true, asked, responded, missed, closed_otherwise, waiting, median, p90
       FROM counted WHERE total
     ORDER BY 2, 1`,
    p.values,
  );
  const total = rows.find((row) => row.total);
  return {
    buckets: rows
      .filter((row) => !row.total)
      .map((row) => ({ label: row.label as string, ...toBucket(row) })),
    total: total ? toBucket(total) : toBucket({} as BucketRow),
  };
}

interface MissedRow {
  source_id: string;
  kind: string;
  question_id: string;
  asked: string;
  agent: string | null;
  first_seen: Date | string;
  closed_seen: Date | string;
  expires_at: Date | string | null;
}

const iso = (value: Date | string) => new Date(value).toISOString();

async function missed(db: Queryable, filter: InsightsFilter) {
  const p = new Params();
  const rows = await db.query<MissedRow>(
    `SELECT w.source_id, w.kind, w.question_id, w.asked, coalesce(w.agent, w.user_id) AS agent,
            w.first_seen, w.closed_seen, w.expires_at
       FROM watched_questions w
      WHERE ${inRange(filter, p)} AND w.closed_seen IS NOT NULL AND ${EXPIRED}
        AND NOT EXISTS (SELECT 1 FROM (${FIRST_RESPONSE}) r WHERE r.at IS NOT NULL)
      ORDER BY w.closed_seen DESC, w.source_id COLLATE "C", w.question_id COLLATE "C"
      LIMIT ${MISSED_LIST}`,
    p.values,
  );
  return rows.map((row) => ({
    sourceId: row.source_id,
    kind: row.kind,
    questionId: row.question_id,
    asked: row.asked,
    agent: row.agent,
    firstSeen: iso(row.first_seen),
    closedSeen: iso(row.closed_seen),
    expiresAt: row.expires_at === null ? null : iso(row.expires_at),
  }));
}

/** The `limit` largest groups of `keySql` over the range's questions, and what the rest add up to. */
async function top(
  db: Queryable,
  filter: InsightsFilter,
  keySql: string,
  from: string,
  limit: number,
): Promise<{ top: Count[]; others: number }> {
  const p = new Params();
  const rows = await db.query<{ key: string | null; n: number; total: number }>(
    `SELECT key, n, sum(n) OVER ()::int AS total FROM (
       SELECT ${keySql} AS key, count(*)::int AS n FROM ${from} WHERE ${inRange(filter, p)} GROUP BY 1
     ) g ORDER BY n DESC, key IS NULL, key COLLATE "C" LIMIT ${limit}`,
    p.values,
  );
  const shown = rows.reduce((sum, row) => sum + Number(row.n), 0);
  return {
    top: rows.map((row) => ({ key: row.key ?? '', questions: Number(row.n) })),
    others: rows.length ? Number(rows[0]?.total) - shown : 0,
  };
}

async function reviewers(db: Queryable, filter: InsightsFilter) {
  const p = new Params();
  const where = [
    `e.at >= ${p.add(filter.from)}::timestamptz`,
    `e.at < ${p.add(filter.to)}::timestamptz`,
  ];
  if (filter.sourceId) where.push(`e.source_id = ${p.add(filter.sourceId)}`);
  const byQuestion = filter.tag || filter.agent;
  if (byQuestion) {
    const { sourceId: _, ...rest } = filter;
    where.push(...questionFilters(rest, p));
  }
  const rows = await db.query<{
    reviewer: string;
    reviewer_name: string | null;
    action: string;
    n: number;
  }>(
    `SELECT e.reviewer, max(e.reviewer_name COLLATE "C") AS reviewer_name, e.action, count(*)::int AS n
       FROM audit_entries e
       ${byQuestion ? 'JOIN watched_questions w ON w.source_id = e.source_id AND w.question_id = e.question_id' : ''}
      WHERE ${where.join(' AND ')}
      GROUP BY e.reviewer, e.action`,
    p.values,
  );
  return rankReviewers(
    rows.map((row) => ({
      reviewer: row.reviewer,
      reviewerName: row.reviewer_name,
      action: row.action,
      count: Number(row.n),
    })),
  );
}

async function pendingNow(db: Queryable, filter: InsightsFilter) {
  const p = new Params();
  const filters = questionFilters(filter, p);
  const where = ['w.closed_seen IS NULL', ...filters].join(' AND ');
  // A claim names a question as the inbox does (`<source>:<id>` for Vertesia and Bilby).
  const bySystem = await db.query<{ source_id: string; pending: number; expiring: number }>(
    `SELECT w.source_id, count(*)::int AS pending,
            count(*) FILTER (
              WHERE w.expires_at > now()
                AND w.expires_at <= now() + interval '${EXPIRING_SOON_MINUTES} minutes'
                AND NOT EXISTS (
                  SELECT 1 FROM claims c
                   WHERE c.source_id = w.source_id AND c.expires_at > now()
                     AND (c.question_id = w.question_id
                          OR c.question_id = w.source_id || ':' || w.question_id))
            )::int AS expiring
       FROM watched_questions w WHERE ${where}
      GROUP BY w.source_id ORDER BY w.source_id COLLATE "C"`,
    p.values,
  );
  const [oldest] = await db.query<{
    source_id: string;
    kind: string;
    question_id: string;
    asked: string;
    first_seen: Date | string;
  }>(
    `SELECT w.source_id, w.kind, w.question_id, w.asked, w.first_seen
       FROM watched_questions w WHERE ${where}
      ORDER BY w.first_seen, w.source_id COLLATE "C", w.question_id COLLATE "C" LIMIT 1`,
    p.values,
  );
  const [clock] = await db.query<{ at: Date | string }>('SELECT now() AS at');
  return {
    at: iso(clock?.at ?? new Date()),
    bySystem: bySystem.map((row) => ({
      sourceId: row.source_id,
      pending: Number(row.pending),
      expiringUnclaimed: Number(row.expiring),
    })),
    oldest: oldest
      ? {
          sourceId: oldest.source_id,
          kind: oldest.kind,
          questionId: oldest.question_id,
          asked: oldest.asked,
          firstSeen: iso(oldest.first_seen),
        }
      : null,
  };
}

/**
 * Every figure of the page in one read-only transaction (one snapshot: the figures agree with
 * each other), each statement stopped after STATEMENT_TIMEOUT_MS.
 */
export function sqlInsights(db: Db): InsightsStore {
  return {
    figures: (filter, options) =>
      db.transaction(async (tx): Promise<Insights> => {
        await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
        // Small aggregates over an index's range: compiling them (JIT) or starting parallel
        // workers costs more than the work (measured: 55 ms of JIT, ~100 ms of worker start-up).
        await tx.query(
          `SELECT set_config('statement_timeout', '${STATEMENT_TIMEOUT_MS}', true),
                  set_config('jit', 'off', true),
                  set_config('max_parallel_workers_per_gather', '0', true)`,
        );
        const days = await buckets(tx, filter);
        return {
          ...days,
          missed: await missed(tx, filter),
          bySystem: (await top(tx, filter, 'w.source_id', 'watched_questions w', 1000)).top,
          byAgent: await top(
            tx,
            filter,
            'coalesce(w.agent, w.user_id)',
            'watched_questions w',
            TOP_KEYS,
          ),
          byTag: await top(
            tx,
            filter,
            't.tag',
            `watched_questions w LEFT JOIN LATERAL (SELECT DISTINCT jsonb_array_elements_text(w.tags)) t(tag) ON true`,
            TOP_KEYS,
          ),
          reviewers: options.perReviewer ? await reviewers(tx, filter) : null,
          now: await pendingNow(tx, filter),
        };
      }),
  };
}
