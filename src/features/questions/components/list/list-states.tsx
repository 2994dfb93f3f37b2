import { Button, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconFilterOff, IconInbox } from '@tabler/icons-react';
import { isSignedOut } from '@/lib/api-client';
import type { StatusFilter } from '../../utils/filters';
import { filterMeta } from '../../utils/question-policy';
import { LoadFailed } from '../shared/load-failed';

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
      <Text c="dimmed">Try other words, or clear the filters.</Text>
      <Button variant="light" onClick={onClear}>
        Clear filters
      </Button>
    </Stack>
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
