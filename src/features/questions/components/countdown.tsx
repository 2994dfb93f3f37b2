import { useMemo } from 'react';
import { useNow } from '@/lib/clock';
import { formatDuration, formatExact } from '@/lib/format-time';
import { urgency } from '../utils/status';
import classes from './countdown.module.css';

const sizes = { xs: classes.xs, sm: classes.sm, md: classes.md };

/**
 * "expires in 4m 12s", driven by the page's one shared clock. A plain span: with 500 rows it
 * renders 500 times a second, so it stays as light as it can.
 */
export function Countdown({
  expiresAt,
  size = 'sm',
}: {
  expiresAt: number;
  size?: 'xs' | 'sm' | 'md';
}) {
  const now = useNow();
  const title = useMemo(() => `Expires ${formatExact(expiresAt)}`, [expiresAt]);
  const left = expiresAt - now;
  const level = left <= 0 ? 'expired' : urgency(left);
  return (
    <span
      className={`${classes.countdown} ${classes[level]} ${sizes[size]}`}
      title={title}
      data-urgency={level}
    >
      {left <= 0 ? 'expired' : `expires in ${formatDuration(left)}`}
    </span>
  );
}
