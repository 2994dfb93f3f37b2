import { formatDuration } from '@/lib/format-time';

/** A wait as the page says it ("4m 12s"); a dash where there is none. */
export function formatWait(seconds: number | null): string {
  return seconds === null ? '–' : formatDuration(seconds * 1000);
}

/** A bucket's label as the reader sees it: "Mon 3 Mar", or "14:00" for an hour. */
export function formatBucket(label: string, bucket: 'hour' | 'day'): string {
  if (bucket === 'hour') return label.slice(11, 16);
  const [y, m, d] = label.split('-').map(Number) as [number, number, number];
  return new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
  }).format(new Date(y, m - 1, d));
}
