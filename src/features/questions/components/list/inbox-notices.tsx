import { Alert, Button, Group, Paper, Text } from '@mantine/core';
import { describeError } from '@/lib/describe-error';
import type { Question } from '../../api/schemas';
import { useDesktopAlerts, usePendingBadge } from '../../hooks/use-desktop-alerts';
import classes from './questions-page.module.css';

/**
 * The tab title and icon count what is pending ("(3) Questions"); desktop notifications, when on,
 * tell a reviewer who is away.
 */
export function PendingTitle({ pending }: { pending: Question[] | undefined }) {
  usePendingBadge(pending);
  useDesktopAlerts(pending);
  return null;
}

/** A background refresh failed with a list on screen: the list stays, and says it may be old. */
export function RefreshFailedNote({ error }: { error: unknown }) {
  return (
    <Alert color="orange" variant="light" role="status" title="Showing the last loaded list">
      {describeError(error).title}. The list below may be out of date; it refreshes again on its
      own.
    </Alert>
  );
}

export function NewArrivalsBanner({ count, onSeen }: { count: number; onSeen: () => void }) {
  if (count === 0) return null;
  return (
    <Paper withBorder p="xs" px="md" className={classes.banner} role="status">
      <Text size="sm">
        {count} new question{count === 1 ? '' : 's'} arrived.
      </Text>
      <Group gap="xs">
        <Button size="compact-sm" variant="subtle" onClick={onSeen}>
          Mark all seen
        </Button>
      </Group>
    </Paper>
  );
}
