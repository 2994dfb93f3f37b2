import { IconRefresh } from '@tabler/icons-react';
import { useClockReading } from '@/lib/clock';
import { formatDuration } from '@/lib/format-time';
import classes from './refresh-indicator.module.css';

export interface RefreshIndicatorProps {
  updatedAt: number;
  fetching: boolean;
  /** The last background refresh failed while older data stays on screen. */
  failed: boolean;
  onRefresh: () => void;
}

function describeAge(updatedAt: number, now: number): string {
  const age = updatedAt > 0 ? Math.max(0, now - updatedAt) : null;
  if (age === null) return 'Not loaded yet';
  return age < 2000 ? 'Updated just now' : `Updated ${formatDuration(age)} ago`;
}

export function RefreshIndicator({
  updatedAt,
  fetching,
  failed,
  onRefresh,
}: RefreshIndicatorProps) {
  // `updatedAt` is the browser's own time (React Query's), as is the page clock's `now`. The label
  // is what changes: no render for a tick that leaves it as it was.
  const label = useClockReading((now) => describeAge(updatedAt, now));
  return (
    <div className={classes.indicator}>
      <p
        aria-live="off"
        className={`nowrap ${classes.updated}`}
        data-failed={failed || undefined}
        data-testid="updated-at"
      >
        {failed ? `Refresh failed · ${label.toLowerCase()}` : label}
      </p>
      {/* Busy while a refresh runs, like the rest of the portal's buttons (Mantine's loading state). */}
      <button
        type="button"
        className={classes.button}
        onClick={onRefresh}
        disabled={fetching}
        data-fetching={fetching || undefined}
        aria-label="Refresh now"
        title="Refresh now (r)"
      >
        <IconRefresh size={18} aria-hidden className={classes.icon} />
      </button>
    </div>
  );
}
