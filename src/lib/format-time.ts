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

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "just now", "5 minutes ago", "in 2 hours", "3 days ago". */
export function formatRelative(at: number, now: number): string {
  const diff = at - now;
  const abs = Math.abs(diff);
  // Within a tick of the shared clock either way, it is now.
  if (abs < 45 * SECOND) return 'just now';
  if (abs < HOUR) return relative.format(Math.round(diff / MINUTE), 'minute');
  if (abs < DAY) return relative.format(Math.round(diff / HOUR), 'hour');
  if (abs < 30 * DAY) return relative.format(Math.round(diff / DAY), 'day');
  if (abs < 365 * DAY) return relative.format(Math.round(diff / (30 * DAY)), 'month');
  return relative.format(Math.round(diff / (365 * DAY)), 'year');
}

const EXACT = { dateStyle: 'medium', timeStyle: 'long' } as const;
const exact = new Intl.DateTimeFormat('en', EXACT);
/** Formatters for another time zone (the server's, while its HTML is taken over). */
const exactIn = new Map<string, Intl.DateTimeFormat>();

/** "Nov 30, 2026, 9:21:19 AM UTC" in the reviewer's time zone, or in `timeZone`. */
export function formatExact(at: number, timeZone?: string): string {
  if (timeZone === undefined) return exact.format(new Date(at));
  let format = exactIn.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en', { ...EXACT, timeZone });
    } catch {
      // A zone this browser does not know: its own.
      format = exact;
    }
    exactIn.set(timeZone, format);
  }
  return format.format(new Date(at));
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
