// How the team is doing (issue 39): the Insights page's figures and their CSV, over the watcher's
// records of each question (first seen, closed seen) and the audit trail. The figures' meaning is
// docs/insights.md's; the store computes them (SQL in server/insights/queries.ts, arrays in
// server/insights/memory.ts for the static demo). No Node built-ins: the demo's Service Worker
// runs this file too.
import { Hono } from 'hono';
import { auditActions } from '../audit/types';
import { type IdentityConfig, identify } from '../identity/identity';
import { message } from '../lib/message';

/** Actions that answer the agent (a claim or a release does not). */
export const RESPONDING_ACTIONS = [
  'answer',
  'edit',
  'not-applicable',
  'cancel',
  'resolve-json',
] as const;

export interface InsightsFilter {
  /** ISO times: questions first seen, and trail entries made, from `from` (inclusive) to `to`. */
  from: string;
  to: string;
  /** IANA time zone the days (or hours) are counted in: the reader's. */
  timeZone: string;
  /** Hours for a range of up to two days, days beyond. */
  bucket: 'hour' | 'day';
  sourceId?: string;
  tag?: string;
  /** The agent, or the user where the system names no agent. */
  agent?: string;
}

/** One day (or hour) of questions first seen then. */
export interface InsightsBucket {
  /** Local `YYYY-MM-DD`, or `YYYY-MM-DDTHH:00` for hours, in the filter's time zone. */
  label: string;
  asked: number;
  /** Got a reviewer's action through the portal (RESPONDING_ACTIONS, not refused). */
  responded: number;
  /** Closed by expiry with no reviewer's action. */
  missed: number;
  /** Closed otherwise with no reviewer's action (the agent cancelled; answered elsewhere). */
  closedOtherwise: number;
  /** Not closed yet and no reviewer's action. */
  waiting: number;
  /** Seconds from first seen to the first reviewer's action: median and 90th percentile. */
  medianWaitSeconds: number | null;
  p90WaitSeconds: number | null;
}

export interface MissedQuestion {
  sourceId: string;
  kind: string;
  questionId: string;
  asked: string;
  agent: string | null;
  firstSeen: string;
  closedSeen: string;
  expiresAt: string | null;
}

export interface Count {
  key: string;
  questions: number;
}

export interface ReviewerFigures {
  reviewer: string;
  reviewerName: string | null;
  total: number;
  /** Entries by action (every action the trail knows, refusals included: as the Activity page lists them). */
  byAction: Record<string, number>;
}

export interface PendingNow {
  sourceId: string;
  pending: number;
  /** Expiring within 10 minutes and nobody's unexpired claim on it. */
  expiringUnclaimed: number;
}

export interface Insights {
  buckets: InsightsBucket[];
  /** The whole range: the buckets summed, and the waits' median and 90th percentile over all. */
  total: Omit<InsightsBucket, 'label'>;
  /** The newest missed questions (closed last first), at most MISSED_LIST. */
  missed: MissedQuestion[];
  bySystem: Count[];
  /** The most frequent, at most TOP_KEYS; `others` counts the questions of the rest. */
  byAgent: { top: Count[]; others: number };
  byTag: { top: Count[]; others: number };
  /** Null when per-person figures are off (INSIGHTS_PER_REVIEWER=0). */
  reviewers: { top: ReviewerFigures[]; others: number } | null;
  now: {
    at: string;
    bySystem: PendingNow[];
    oldest: {
      sourceId: string;
      kind: string;
      questionId: string;
      asked: string;
      firstSeen: string;
    } | null;
  };
}

export const MISSED_LIST = 20;
export const TOP_KEYS = 20;
export const TOP_REVIEWERS = 100;
/** The longest range: a year of retention and a little more. */
export const MAX_RANGE_DAYS = 400;
export const EXPIRING_SOON_MINUTES = 10;

export interface InsightsStore {
  figures(filter: InsightsFilter, options: { perReviewer: boolean }): Promise<Insights>;
}

/** Per reviewer, busiest first (then by name), at most TOP_REVIEWERS; `others`: the rest's entries. */
export function rankReviewers(
  rows: { reviewer: string; reviewerName: string | null; action: string; count: number }[],
): { top: ReviewerFigures[]; others: number } {
  const byReviewer = new Map<string, ReviewerFigures>();
  for (const row of rows) {
    const figures = byReviewer.get(row.reviewer) ?? {
      reviewer: row.reviewer,
      reviewerName: null,
      total: 0,
      byAction: {},
    };
    if (row.reviewerName && (!figures.reviewerName || row.reviewerName > figures.reviewerName)) {
      figures.reviewerName = row.reviewerName;
    }
    figures.total += row.count;
    figures.byAction[row.action] = (figures.byAction[row.action] ?? 0) + row.count;
    byReviewer.set(row.reviewer, figures);
  }
  const ranked = [...byReviewer.values()].sort(
    (a, b) => b.total - a.total || (a.reviewer < b.reviewer ? -1 : 1),
  );
  return {
    top: ranked.slice(0, TOP_REVIEWERS),
    others: ranked.slice(TOP_REVIEWERS).reduce((sum, r) => sum + r.total, 0),
  };
}

export interface InsightsOptions {
  store: InsightsStore;
  identity: IdentityConfig;
  /** INSIGHTS_PER_REVIEWER: false sends no per-person figure (not even in the CSV). */
  perReviewer: boolean;
  log?: (line: string) => void;
}

/** The question a time zone name must look like before anything is asked with it. */
function validTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The API's query: `from`, `to` (ISO), `tz`, `source`, `tag`, `agent`. */
export function parseInsightsQuery(
  params: URLSearchParams,
): { filter: InsightsFilter } | { error: string } {
  const text = (name: string) => params.get(name)?.trim().slice(0, 200) || undefined;
  const times: Record<'from' | 'to', number> = { from: Number.NaN, to: Number.NaN };
  for (const name of ['from', 'to'] as const) {
    const value = text(name);
    if (value === undefined) return { error: `${name} is required (an ISO 8601 time).` };
    times[name] = Date.parse(value);
    if (Number.isNaN(times[name])) return { error: `${name} must be a date or time (ISO 8601).` };
  }
  if (times.to <= times.from) return { error: 'to must be after from.' };
  if (times.to - times.from > MAX_RANGE_DAYS * 86_400_000) {
    return { error: `The range can be at most ${MAX_RANGE_DAYS} days.` };
  }
  const timeZone = text('tz') ?? 'UTC';
  if (!validTimeZone(timeZone))
    return { error: `tz must be a time zone name such as Europe/Paris.` };
  return {
    filter: {
      from: new Date(times.from).toISOString(),
      to: new Date(times.to).toISOString(),
      timeZone,
      bucket: times.to - times.from <= 2 * 86_400_000 ? 'hour' : 'day',
      sourceId: text('source'),
      tag: text('tag'),
      agent: text('agent'),
    },
  };
}

function jsonResponse(status: number, value: unknown): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}

/** A CSV field: quoted when needed, a leading = + - @ defused (as the Activity CSV does). */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csv = (rows: (string | number | null | undefined)[][]) =>
  `${rows.map((row) => row.map(csvField).join(',')).join('\r\n')}\r\n`;

const seconds = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);

/** The figures the page offers as CSV, by the name `figure=` takes. */
export const CSV_FIGURES = {
  days: (insights: Insights) =>
    csv([
      [
        'bucket',
        'asked',
        'responded',
        'missed',
        'closed_otherwise',
        'waiting',
        'median_wait_seconds',
        'p90_wait_seconds',
      ],
      ...insights.buckets.map((b) => [
        b.label,
        b.asked,
        b.responded,
        b.missed,
        b.closedOtherwise,
        b.waiting,
        seconds(b.medianWaitSeconds),
        seconds(b.p90WaitSeconds),
      ]),
      [
        'total',
        insights.total.asked,
        insights.total.responded,
        insights.total.missed,
        insights.total.closedOtherwise,
        insights.total.waiting,
        seconds(insights.total.medianWaitSeconds),
        seconds(insights.total.p90WaitSeconds),
      ],
    ]),
  missed: (insights: Insights) =>
    csv([
      ['source', 'question_id', 'asked', 'agent', 'first_seen', 'expires_at', 'closed_seen'],
      ...insights.missed.map((m) => [
        m.sourceId,
        m.questionId,
        m.asked,
        m.agent,
        m.firstSeen,
        m.expiresAt,
        m.closedSeen,
      ]),
    ]),
  systems: (insights: Insights) =>
    csv([['source', 'questions'], ...insights.bySystem.map((c) => [c.key, c.questions])]),
  agents: (insights: Insights) =>
    csv([
      ['agent', 'questions'],
      ...insights.byAgent.top.map((c) => [c.key, c.questions]),
      ...(insights.byAgent.others ? [['(others)', insights.byAgent.others]] : []),
    ]),
  tags: (insights: Insights) =>
    csv([
      ['tag', 'questions'],
      ...insights.byTag.top.map((c) => [c.key, c.questions]),
      ...(insights.byTag.others ? [['(others)', insights.byTag.others]] : []),
    ]),
  reviewers: (insights: Insights) => {
    const actions = auditActions;
    return csv([
      ['reviewer', 'reviewer_name', 'total', ...actions],
      ...(insights.reviewers?.top ?? []).map((r) => [
        r.reviewer,
        r.reviewerName,
        r.total,
        ...actions.map((action) => r.byAction[action] ?? 0),
      ]),
    ]);
  },
  pending: (insights: Insights) =>
    csv([
      ['source', 'pending', 'expiring_unclaimed'],
      ...insights.now.bySystem.map((p) => [p.sourceId, p.pending, p.expiringUnclaimed]),
    ]),
} as const;
export type CsvFigure = keyof typeof CSV_FIGURES;

/**
 * `GET /portal-api/insights` (JSON) and `GET /portal-api/insights.csv?figure=…`, for any signed-in
 * reviewer (the Activity page's rule); null for any other path, so the caller tries its next API.
 */
export function createInsightsApi(options: InsightsOptions) {
  const log = options.log ?? ((line: string) => console.error(line));
  const app = new Hono();
  const read = async (request: Request) => {
    const reviewer = identify(request.headers, options.identity);
    if (reviewer instanceof Response) return { response: reviewer };
    const parsed = parseInsightsQuery(new URL(request.url).searchParams);
    if ('error' in parsed) return { response: jsonResponse(400, { detail: parsed.error }) };
    try {
      const insights = await options.store.figures(parsed.filter, {
        perReviewer: options.perReviewer,
      });
      return { insights, filter: parsed.filter };
    } catch (error) {
      log(`[insights] could not compute the figures: ${message(error)}`);
      return {
        response: jsonResponse(503, {
          detail:
            'The figures could not be computed: the database is unavailable or took too long. Try again in a moment, or a shorter range.',
        }),
      };
    }
  };

  app.get('/portal-api/insights', async (c) => {
    const result = await read(c.req.raw);
    if (result.response) return result.response;
    return jsonResponse(200, {
      ...result.insights,
      filter: result.filter,
      perReviewer: options.perReviewer,
    });
  });

  app.get('/portal-api/insights.csv', async (c) => {
    const figure = new URL(c.req.url).searchParams.get('figure') ?? '';
    if (!Object.hasOwn(CSV_FIGURES, figure)) {
      return jsonResponse(400, {
        detail: `figure must be one of ${Object.keys(CSV_FIGURES).join(', ')}.`,
      });
    }
    if (figure === 'reviewers' && !options.perReviewer) {
      return jsonResponse(404, {
        detail: 'Per-person figures are turned off on this portal (INSIGHTS_PER_REVIEWER=0).',
      });
    }
    const result = await read(c.req.raw);
    if (result.response) return result.response;
    return new Response(CSV_FIGURES[figure as CsvFigure](result.insights), {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="insights-${figure}.csv"`,
        'cache-control': 'no-store',
      },
    });
  });

  return async (request: Request, innerPath: string): Promise<Response | null> => {
    if (innerPath !== '/portal-api/insights' && innerPath !== '/portal-api/insights.csv') {
      return null;
    }
    if (request.method.toUpperCase() !== 'GET' && request.method.toUpperCase() !== 'HEAD') {
      return jsonResponse(405, { detail: 'GET only.' });
    }
    const url = new URL(request.url);
    url.pathname = innerPath;
    return app.fetch(new Request(url, { method: 'GET', headers: request.headers }));
  };
}
