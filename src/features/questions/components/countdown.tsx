import { Text } from '@mantine/core';
import { useNow } from '@/lib/clock';
import { formatDuration, formatExact } from '@/lib/format-time';
import { urgency } from '../utils/status';
import classes from './countdown.module.css';

/** "expires in 4m 12s", driven by the page's one shared clock. */
export function Countdown({
  expiresAt,
  size = 'sm',
}: {
  expiresAt: number;
  size?: 'xs' | 'sm' | 'md';
}) {
  const now = useNow();
  const left = expiresAt - now;
  const exact = formatExact(expiresAt);
  const level = left <= 0 ? 'expired' : urgency(left);
  return (
    <Text
      component="span"
      size={size}
      className={`${classes.countdown} ${classes[level]}`}
      title={`Expires ${exact}`}
      data-urgency={level}
    >
      {left <= 0 ? 'expired' : `expires in ${formatDuration(left)}`}
    </Text>
  );
}
