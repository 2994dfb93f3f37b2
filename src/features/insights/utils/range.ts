// The page's filters as they stand in its URL, and the range they name as the times the server
// is asked for: days start at the reader's midnight.
import type { InsightsQuery } from '../api/schemas';

export const RANGES = ['24h', '7d', '30d', 'custom'] as const;
export type Range = (typeof RANGES)[number];

export const RANGE_LABELS: Record<Range, string> = {
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  custom: 'Custom',
};

/** The URL's fields: `range`, `from` and `to` (YYYY-MM-DD, custom only), `source`, `tag`, `agent`. */
export interface InsightsParams {
  range: Range;
  from?: string;
  to?: string;
  source?: string;
  tag?: string;
  agent?: string;
}

export const PARAM_FIELDS = ['range', 'from', 'to', 'source', 'tag', 'agent'] as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function readParams(params: URLSearchParams): InsightsParams {
  const text = (name: string) => params.get(name)?.trim() || undefined;
  const range = text('range');
  const out: InsightsParams = {
    range: (RANGES as readonly string[]).includes(range ?? '') ? (range as Range) : '7d',
    source: text('source'),
    tag: text('tag'),
    agent: text('agent'),
  };
  if (out.range === 'custom') {
    const from = text('from');
    const to = text('to');
    if (from && DAY.test(from)) out.from = from;
    if (to && DAY.test(to)) out.to = to;
  }
  return out;
}

export function writeParams(value: InsightsParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const field of PARAM_FIELDS) {
    const item = value[field];
    if (item && !(field === 'range' && item === '7d')) out.set(field, item);
    if ((field === 'from' || field === 'to') && value.range !== 'custom') out.delete(field);
  }
  return out;
}

/** Local midnight of `day` (YYYY-MM-DD) plus `days`. */
function midnight(day: string, days = 0): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + days).getTime();
}

function localDay(at: number): string {
  const date = new Date(at);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * What the server is asked for `params` at `now`: the 24 whole hours to the end of this one; the last 7 or
 * 30 days from midnight (today included); a custom range from its first day's midnight to the
 * midnight after its last day. Null when a custom range is incomplete or backwards.
 */
export function queryFor(
  params: InsightsParams,
  now: number,
  timeZone: string,
): InsightsQuery | null {
  const next = Math.ceil(now / 60_000) * 60_000;
  let from: number;
  let to = next;
  if (params.range === '24h') {
    // Whole hours: the 24 of them up to the end of this one.
    to = Math.ceil(now / 3_600_000) * 3_600_000;
    from = to - 86_400_000;
  } else if (params.range === 'custom') {
    if (!params.from || !params.to) return null;
    from = midnight(params.from);
    to = midnight(params.to, 1);
    if (to <= from) return null;
  } else from = midnight(localDay(now), params.range === '7d' ? -6 : -29);
  return {
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    tz: timeZone,
    source: params.source,
    tag: params.tag,
    agent: params.agent,
  };
}

/** The reader's time zone, as the browser names it. */
export function readerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
