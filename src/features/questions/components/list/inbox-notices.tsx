import { Alert, Button, Group, Paper, Text } from '@mantine/core';
import { useRuntimeConfig } from '@/config/runtime-config';
import { useShell } from '@/config/shell-context';
import { describeError } from '@/lib/describe-error';
import type { SourceFailure } from '../../api/schemas';
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

/** Sources that could not be read: each named, while the others' questions stay live. */
export function SourceFailuresNote({ failures }: { failures: SourceFailure[] | undefined }) {
  const { tokens } = useShell();
  const tokenMode = useRuntimeConfig().auth.mode === 'token';
  if (!failures || failures.length === 0) return null;
  return (
    <Alert
      color="orange"
      variant="light"
      role="status"
      title={
        failures.length === 1 ? 'One source is not answering' : 'Some sources are not answering'
      }
    >
      {failures.map((failure) => (
        <Text size="sm" key={failure.source.id} data-source-failure={failure.source.id}>
          {failure.message}.{' '}
          {failure.stale
            ? 'Its questions below are from the last refresh that reached it.'
            : 'Its questions are missing from the list.'}{' '}
          The other sources are up to date; it is tried again with every refresh.
          {failure.signedOut && tokenMode && (
            <>
              {' '}
              <Button
                size="compact-sm"
                variant="default"
                onClick={() => tokens.clear(failure.source.id)}
              >
                Enter a new {failure.source.label} API key
              </Button>
            </>
          )}
        </Text>
      ))}
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
