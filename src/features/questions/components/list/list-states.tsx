import { Alert, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconFilterOff, IconInbox } from '@tabler/icons-react';
import { isSignedOut } from '@/lib/api-client';
import { describeError } from '@/lib/describe-error';
import type { StatusFilter } from '../../utils/filters';
import { filterMeta } from '../../utils/question-policy';

export function ListLoading() {
  return (
    <Stack gap={0} aria-busy="true" aria-label="Loading questions">
      <Text className="visually-hidden" role="status">
        Loading questions…
      </Text>
      {[0, 1, 2, 3, 4].map((i) => (
        <Stack key={i} gap={8} p="md">
          <Skeleton height={18} width="30%" />
          <Skeleton height={14} />
          <Skeleton height={12} width="50%" />
        </Stack>
      ))}
    </Stack>
  );
}

export function ListEmpty({ status }: { status: StatusFilter }) {
  const text = filterMeta(status).emptyList;
  return (
    <Stack align="center" gap="xs" py={48} px="md" ta="center" data-testid="list-empty">
      <IconInbox size={40} stroke={1.4} aria-hidden />
      <Title order={2} size="h4">
        {text.title}
      </Title>
      <Text c="dimmed" maw={420}>
        {text.body}
      </Text>
    </Stack>
  );
}

export function ListFilteredOut({ onClear }: { onClear: () => void }) {
  return (
    <Stack align="center" gap="xs" py={48} px="md" ta="center" data-testid="list-filtered-out">
      <IconFilterOff size={40} stroke={1.4} aria-hidden />
      <Title order={2} size="h4">
        No questions match these filters
      </Title>
      <Text c="dimmed">Try other words, or clear the search, tag and user filters.</Text>
      <Button variant="light" onClick={onClear}>
        Clear filters
      </Button>
    </Stack>
  );
}

/** A read that failed, with the server's reason and "Try again" (nothing when signed out: that has its own alert). */
export function LoadFailed({
  what,
  error,
  onRetry,
  retrying,
}: {
  /** "Questions", "This question": the sentence's subject. */
  what: string;
  error: unknown;
  onRetry: () => void;
  retrying: boolean;
}) {
  // A signed-out session is explained once, app-wide, with its own way forward.
  if (isSignedOut(error)) return null;
  const { title, message } = describeError(error);
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle aria-hidden />}
      title={title}
      role="alert"
    >
      <Stack gap="sm">
        <Text size="sm">
          {what} could not be loaded. {message}
        </Text>
        <Group>
          <Button size="xs" color="red" variant="filled" onClick={onRetry} loading={retrying}>
            Try again
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

export function ListFailed(props: { error: unknown; onRetry: () => void; retrying: boolean }) {
  if (isSignedOut(props.error)) return null;
  return (
    <Paper p="lg" data-testid="list-failed">
      <LoadFailed what="Questions" {...props} />
    </Paper>
  );
}
