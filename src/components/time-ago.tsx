import { useNow } from '@/lib/clock';
import { formatExact, formatRelative } from '@/lib/format-time';

/** Relative time ("5 minutes ago") with the exact time on hover and for assistive tech. */
export function TimeAgo({ at, prefix }: { at: number; prefix?: string }) {
  const now = useNow(15_000);
  const exact = formatExact(at);
  return (
    <time dateTime={new Date(at).toISOString()} title={exact}>
      {prefix ? `${prefix} ` : ''}
      {formatRelative(at, now)}
    </time>
  );
}
