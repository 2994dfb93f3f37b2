import { useMemo } from 'react';
import { useSourceNow } from '@/lib/clock';
import { formatRelative } from '@/lib/format-time';
import { useExactTime } from '@/lib/use-exact-time';

/**
 * Relative time ("5 minutes ago") with the exact time on hover and for assistive tech. `at` is by
 * the clock of the server behind `sourceKey` (see ServerTime), or the page's own without one.
 */
export function TimeAgo({
  at,
  prefix,
  sourceKey,
}: {
  at: number;
  prefix?: string;
  sourceKey?: string;
}) {
  const now = useSourceNow(sourceKey, 15_000);
  const exact = useExactTime(at);
  const iso = useMemo(() => new Date(at).toISOString(), [at]);
  return (
    <time dateTime={iso} title={exact}>
      {prefix ? `${prefix} ` : ''}
      {formatRelative(at, now)}
    </time>
  );
}
