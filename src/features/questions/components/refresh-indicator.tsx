import { ActionIcon, Group, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useNow } from '@/lib/clock';
import { formatDuration } from '@/lib/format-time';
import classes from './refresh-indicator.module.css';

export interface RefreshIndicatorProps {
  updatedAt: number;
  fetching: boolean;
  /** The last background refresh failed while older data stays on screen. */
  failed: boolean;
  onRefresh: () => void;
}

export function RefreshIndicator({
  updatedAt,
  fetching,
  failed,
  onRefresh,
}: RefreshIndicatorProps) {
  const now = useNow();
  const age = updatedAt > 0 ? Math.max(0, now - updatedAt) : null;
  const label =
    age === null
      ? 'Not loaded yet'
      : age < 2000
        ? 'Updated just now'
        : `Updated ${formatDuration(age)} ago`;
  return (
    <Group gap={6} wrap="nowrap">
      <Text
        size="xs"
        c={failed ? 'red.8' : 'dimmed'}
        aria-live="off"
        className={`nowrap ${classes.updated}`}
        data-testid="updated-at"
      >
        {failed ? `Refresh failed · ${label.toLowerCase()}` : label}
      </Text>
      <ActionIcon
        variant="subtle"
        color="gray"
        onClick={onRefresh}
        loading={fetching}
        aria-label="Refresh now"
        title="Refresh now (r)"
      >
        <IconRefresh size={18} aria-hidden />
      </ActionIcon>
    </Group>
  );
}
