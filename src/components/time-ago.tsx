import { useMemo } from 'react';
import { useNow } from '@/lib/clock';
import { formatExact, formatRelative } from '@/lib/format-time';

/** Relative time ("5 minutes ago") with the exact time on hover and for assistive tech. */
export function TimeAgo({ at, prefix }: { at: number; prefix?: string }) {
  const now = useNow(15_000);
  const { exact, iso } = useMemo(
    () => ({ exact: formatExact(at), iso: new Date(at).toISOString() }),
    [at],
  );
  return (
    <time dateTime={iso} title={exact}>
      {prefix ? `${prefix} ` : ''}
      {formatRelative(at, now)}
    </time>
  );
}
