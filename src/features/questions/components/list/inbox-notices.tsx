import { Alert, Button, Group, Paper, Text } from '@mantine/core';
import { describeError } from '@/lib/describe-error';
import classes from './questions-page.module.css';

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
