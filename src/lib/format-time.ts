const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "4m 12s", "3h 05m", "2d 4h": compact and stable in width as it ticks. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / SECOND));
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${String(minutes).padStart(2, '0')}m`;
  if (minutes > 0) return `${minutes}m ${String(seconds).padStart(2, '0')}s`;
  return `${seconds}s`;
}

type RelativeUnit = 'minute' | 'hour' | 'day' | 'month' | 'year';
/** What Intl.RelativeTimeFormat('en', { numeric: 'auto' }) says for ±1 of a unit in words. */
const NEXT_AND_LAST: Partial<Record<RelativeUnit, readonly [string, string]>> = {
  day: ['tomorrow', 'yesterday'],
  month: ['next month', 'last month'],
  year: ['next year', 'last year'],
};
const grouped = (count: number) => String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * English relative time, word for word what Intl.RelativeTimeFormat('en', { numeric: 'auto' })
 * says for the counts formatRelative asks, none of them 0 (format-time.test.ts compares them).
 * Written out because a page's first Intl object loads the browser's locale data: 20-24 ms of the
 * take-over of a page the server drew, whose every row says when it was asked (docs/performance.md).
 */
export function relativeText(count: number, unit: RelativeUnit): string {
  const words = NEXT_AND_LAST[unit];
  if (words && Math.abs(count) === 1) return count > 0 ? words[0] : words[1];
  const amount = Math.abs(count);
  const units = `${grouped(amount)} ${unit}${amount === 1 ? '' : 's'}`;
  return count < 0 ? `${units} ago` : `in ${units}`;
}

/** "just now", "5 minutes ago", "in 2 hours", "3 days ago". */
export function formatRelative(at: number, now: number): string {
  const diff = at - now;
  const abs = Math.abs(diff);
  // Within a tick of the shared clock either way, it is now.
  if (abs < 45 * SECOND) return 'just now';
  if (abs < HOUR) return relativeText(Math.round(diff / MINUTE), 'minute');
  if (abs < DAY) return relativeText(Math.round(diff / HOUR), 'hour');
  if (abs < 30 * DAY) return relativeText(Math.round(diff / DAY), 'day');
  if (abs < 365 * DAY) return relativeText(Math.round(diff / (30 * DAY)), 'month');
  return relativeText(Math.round(diff / (365 * DAY)), 'year');
}

const EXACT = { dateStyle: 'medium', timeStyle: 'long' } as const;
/** Made at the first exact time asked for, not as the page loads (see relativeText). */
let exact: Intl.DateTimeFormat | undefined;

/** "Nov 30, 2026, 9:21:19 AM UTC" in the reviewer's time zone. */
export function formatExact(at: number): string {
  exact ??= new Intl.DateTimeFormat('en', EXACT);
  return exact.format(new Date(at));
}

/** "30 days", "1 hour", "90 seconds": for durations a reviewer types in seconds. */
export function describeSeconds(seconds: number): string {
  const units: Array<[number, string]> = [
    [86_400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) {
    if (seconds >= size && seconds % size === 0) {
      const count = seconds / size;
      return `${count} ${name}${count === 1 ? '' : 's'}`;
    }
  }
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}
