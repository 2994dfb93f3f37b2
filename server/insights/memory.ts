// The Insights figures over records held in memory: what the static demo's Service Worker shows
// over its simulated history (demo/insights-history.ts). The same definitions as the SQL in
// server/insights/queries.ts, written for arrays; server/insights/memory.test.ts feeds both the
// same records and checks they agree.
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

/** A question as the watcher keeps it (watched_questions). */
export interface QuestionRecord {
  sourceId: string;
  questionId: string;
  kind: string;
  asked: string;
  agent: string | null;
  user: string | null;
  tags: string[];
  expiresAt: string | null;
  status: string;
  firstSeen: string;
  closedSeen: string | null;
}

/** A trail entry with its outcome (null: none recorded). */
export interface EntryRecord {
  at: string;
  reviewer: string;
  reviewerName: string | null;
  sourceId: string;
  questionId: string;
  action: string;
  status: number | null;
}

export interface ClaimRecord {
  sourceId: string;
  /** As the inbox names it (`<source>:<id>` for Vertesia and Bilby). */
  questionId: string;
  expiresAt: string;
}

export interface MemoryRecords {
  questions: readonly QuestionRecord[];
  entries: readonly EntryRecord[];
  claims: readonly ClaimRecord[];
}

const responding = new Set<string>(RESPONDING_ACTIONS);
const refused = (status: number | null) => status !== null && (status < 200 || status >= 400);

/** The instant's wall-clock time in `timeZone`, as milliseconds of a UTC date (for arithmetic). */
function localMs(instant: number, format: Intl.DateTimeFormat): number {
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(instant)) parts[part.type] = Number(part.value);
  return (
    Date.UTC(
      parts.year ?? 1970,
      (parts.month ?? 1) - 1,
      parts.day ?? 1,
      parts.hour ?? 0,
      parts.minute ?? 0,
      parts.second ?? 0,
    ) +
    (((instant % 1000) + 1000) % 1000)
  );
}

function truncate(local: number, bucket: 'hour' | 'day'): number {
  const date = new Date(local);
  return bucket === 'day'
    ? Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate())
    : Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), date.getUTCHours());
}

function label(local: number, bucket: 'hour' | 'day'): string {
  const text = new Date(local).toISOString();
  return bucket === 'day' ? text.slice(0, 10) : `${text.slice(0, 13)}:00`;
}

/** PostgreSQL's percentile_cont: linear interpolation between the two nearest values. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const position = p * (sorted.length - 1);
  const low = Math.floor(position);
  const high = Math.ceil(position);
  const a = sorted[low] as number;
  const b = sorted[high] as number;
  return a + (position - low) * (b - a);
}

/** Largest first, then by key (code units, as COLLATE "C"), the unnamed last among equals. */
function ranked(
  counts: Map<string | null, number>,
  limit: number,
): { top: Count[]; others: number } {
  const all = [...counts.entries()].sort(
    ([ka, a], [kb, b]) =>
      b - a || (ka === null ? 1 : 0) - (kb === null ? 1 : 0) || ((ka ?? '') < (kb ?? '') ? -1 : 1),
  );
  const top = all.slice(0, limit).map(([key, questions]) => ({ key: key ?? '', questions }));
  return { top, others: all.slice(limit).reduce((sum, [, n]) => sum + n, 0) };
}

export function memoryInsights(
  records: () => MemoryRecords | Promise<MemoryRecords>,
  now: () => number = Date.now,
): InsightsStore {
  return {
    async figures(filter: InsightsFilter, options) {
      const { questions, entries, claims } = await records();
      const at = now();
      const format = new Intl.DateTimeFormat('en-US', {
        timeZone: filter.timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
      const from = Date.parse(filter.from);
      const to = Date.parse(filter.to);
      const matches = (q: QuestionRecord) =>
        (!filter.sourceId || q.sourceId === filter.sourceId) &&
        (!filter.tag || q.tags.includes(filter.tag)) &&
        (!filter.agent || (q.agent ?? q.user) === filter.agent);
      const inRange = questions.filter((q) => {
        const seen = Date.parse(q.firstSeen);
        return seen >= from && seen < to && matches(q);
      });

      const firstResponse = new Map<string, number>();
      for (const entry of entries) {
        if (!responding.has(entry.action) || refused(entry.status)) continue;
        const key = `${entry.sourceId}\u0000${entry.questionId}`;
        const when = Date.parse(entry.at);
        const known = firstResponse.get(key);
        if (known === undefined || when < known) firstResponse.set(key, when);
      }
      const expired = (q: QuestionRecord) =>
        q.status === 'expired' ||
        (q.status === 'closed' &&
          q.expiresAt !== null &&
          q.closedSeen !== null &&
          Date.parse(q.expiresAt) <= Date.parse(q.closedSeen));

      type Tally = { figures: Omit<InsightsBucket, 'label'>; waits: number[] };
      const tally = (): Tally => ({
        figures: {
          asked: 0,
          responded: 0,
          missed: 0,
          closedOtherwise: 0,
          waiting: 0,
          medianWaitSeconds: null,
          p90WaitSeconds: null,
        },
        waits: [],
      });
      const byBucket = new Map<number, Tally>();
      const total = tally();
      const missed: QuestionRecord[] = [];
      for (const q of inRange) {
        const bucket = truncate(localMs(Date.parse(q.firstSeen), format), filter.bucket);
        const tallies = [byBucket.get(bucket) ?? tally(), total];
        byBucket.set(bucket, tallies[0] as Tally);
        const response = firstResponse.get(`${q.sourceId}\u0000${q.questionId}`);
        for (const t of tallies) {
          t.figures.asked += 1;
          if (response !== undefined) {
            t.figures.responded += 1;
            t.waits.push(Math.max(0, response - Date.parse(q.firstSeen)) / 1000);
          } else if (q.closedSeen === null) t.figures.waiting += 1;
          else if (expired(q)) t.figures.missed += 1;
          else t.figures.closedOtherwise += 1;
        }
        if (response === undefined && q.closedSeen !== null && expired(q)) missed.push(q);
      }
      const finish = (t: Tally): Omit<InsightsBucket, 'label'> => {
        const sorted = [...t.waits].sort((a, b) => a - b);
        return {
          ...t.figures,
          medianWaitSeconds: percentile(sorted, 0.5),
          p90WaitSeconds: percentile(sorted, 0.9),
        };
      };
      const buckets: InsightsBucket[] = [];
      const end = localMs(to, format);
      const step = (local: number) => {
        const d = new Date(local);
        return filter.bucket === 'day'
          ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)
          : local + 3_600_000;
      };
      for (let s = truncate(localMs(from, format), filter.bucket); s < end; s = step(s)) {
        const t = byBucket.get(s);
        buckets.push({ label: label(s, filter.bucket), ...(t ? finish(t) : tally().figures) });
      }

      const count = (keys: (q: QuestionRecord) => (string | null)[]) => {
        const counts = new Map<string | null, number>();
        for (const q of inRange) {
          for (const key of keys(q)) counts.set(key, (counts.get(key) ?? 0) + 1);
        }
        return counts;
      };

      let reviewers: Insights['reviewers'] = null;
      if (options.perReviewer) {
        const byQuestion = new Map(questions.map((q) => [`${q.sourceId}\u0000${q.questionId}`, q]));
        const rows = new Map<
          string,
          { reviewer: string; reviewerName: string | null; action: string; count: number }
        >();
        for (const entry of entries) {
          const when = Date.parse(entry.at);
          if (when < from || when >= to) continue;
          if (filter.sourceId && entry.sourceId !== filter.sourceId) continue;
          if (filter.tag || filter.agent) {
            const q = byQuestion.get(`${entry.sourceId}\u0000${entry.questionId}`);
            if (!q || !matches({ ...q, sourceId: entry.sourceId })) continue;
          }
          const key = `${entry.reviewer}\u0000${entry.action}`;
          const row = rows.get(key) ?? {
            reviewer: entry.reviewer,
            reviewerName: null,
            action: entry.action,
            count: 0,
          };
          row.count += 1;
          if (entry.reviewerName && (!row.reviewerName || entry.reviewerName > row.reviewerName)) {
            row.reviewerName = entry.reviewerName;
          }
          rows.set(key, row);
        }
        reviewers = rankReviewers([...rows.values()]);
      }

      const open = questions.filter((q) => q.closedSeen === null && matches(q));
      const claimed = (q: QuestionRecord) =>
        claims.some(
          (c) =>
            c.sourceId === q.sourceId &&
            Date.parse(c.expiresAt) > at &&
            (c.questionId === q.questionId || c.questionId === `${q.sourceId}:${q.questionId}`),
        );
      const pending = new Map<string, { pending: number; expiringUnclaimed: number }>();
      for (const q of open) {
        const figures = pending.get(q.sourceId) ?? { pending: 0, expiringUnclaimed: 0 };
        figures.pending += 1;
        const expires = q.expiresAt === null ? null : Date.parse(q.expiresAt);
        if (
          expires !== null &&
          expires > at &&
          expires <= at + EXPIRING_SOON_MINUTES * 60_000 &&
          !claimed(q)
        ) {
          figures.expiringUnclaimed += 1;
        }
        pending.set(q.sourceId, figures);
      }
      const oldest = [...open].sort(
        (a, b) =>
          Date.parse(a.firstSeen) - Date.parse(b.firstSeen) ||
          (a.sourceId < b.sourceId ? -1 : a.sourceId > b.sourceId ? 1 : 0) ||
          (a.questionId < b.questionId ? -1 : 1),
      )[0];

      return {
        buckets,
        total: finish(total),
        missed: missed
          .sort(
            (a, b) =>
              Date.parse(b.closedSeen as string) - Date.parse(a.closedSeen as string) ||
              (a.sourceId < b.sourceId ? -1 : a.sourceId > b.sourceId ? 1 : 0) ||
              (a.questionId < b.questionId ? -1 : 1),
          )
          .slice(0, MISSED_LIST)
          .map((q) => ({
            sourceId: q.sourceId,
            kind: q.kind,
            questionId: q.questionId,
            asked: q.asked,
            agent: q.agent ?? q.user,
            firstSeen: new Date(q.firstSeen).toISOString(),
            closedSeen: new Date(q.closedSeen as string).toISOString(),
            expiresAt: q.expiresAt === null ? null : new Date(q.expiresAt).toISOString(),
          })),
        bySystem: ranked(
          count((q) => [q.sourceId]),
          1000,
        ).top,
        byAgent: ranked(
          count((q) => [q.agent ?? q.user]),
          TOP_KEYS,
        ),
        byTag: ranked(
          count((q) => (q.tags.length ? [...new Set(q.tags)] : [null])),
          TOP_KEYS,
        ),
        reviewers,
        now: {
          at: new Date(at).toISOString(),
          bySystem: [...pending.entries()]
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .map(([sourceId, figures]) => ({ sourceId, ...figures })),
          oldest: oldest
            ? {
                sourceId: oldest.sourceId,
                kind: oldest.kind,
                questionId: oldest.questionId,
                asked: oldest.asked,
                firstSeen: new Date(oldest.firstSeen).toISOString(),
              }
            : null,
        },
      };
    },
  };
}
