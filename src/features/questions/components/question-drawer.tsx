// Styles of what the drawer adds to the page: the drawer, confirmation dialogs, the answer forms.
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Drawer.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Divider.layer.css';
import { Alert, Drawer, Skeleton, Stack } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { SessionEndedAlert } from '@/components/session-ended-alert';
import { useRuntimeConfig } from '@/config/runtime-config';
import { isApiError } from '@/lib/api-client';
import { useSession } from '@/lib/session-store';
import { findCachedQuestion, forgetQuestion } from '../api/cache';
import { useQuestionQueries } from '../api/queries';
import { LoadFailed } from './list-states';
import { QuestionDetail } from './question-detail';

/** Ids come from the URL: anything that cannot be an id is "not found" without asking the server. */
export function isPlausibleId(id: string): boolean {
  return /^[A-Za-z0-9_.:-]{1,128}$/.test(id);
}

function NotFound() {
  return (
    <Alert
      color="gray"
      variant="light"
      role="note"
      title="Question not found"
      data-testid="question-not-found"
    >
      There is no question with this id. It may have been removed, or the link may be wrong or
      belong to another organization.
    </Alert>
  );
}

function QuestionPanel({
  id,
  nextId,
  onOpen,
}: {
  id: string;
  nextId: string | null;
  onOpen: (id: string) => void;
}) {
  const queries = useQuestionQueries();
  const queryClient = useQueryClient();
  const { pollIntervalMs } = useRuntimeConfig();
  const { state: session } = useSession();
  const plausible = isPlausibleId(id);
  const detail = useQuery({
    ...queries.detail(id),
    enabled: plausible && session === 'active',
    placeholderData: () => findCachedQuestion(queryClient, id),
    refetchInterval: pollIntervalMs,
  });
  const gone = isApiError(detail.error) && detail.error.kind === 'not-found';

  useEffect(() => {
    if (gone) forgetQuestion(queryClient, id);
  }, [gone, id, queryClient]);

  if (!plausible) return <NotFound />;
  if (detail.data)
    return <QuestionDetail question={detail.data} gone={gone} nextId={nextId} onOpen={onOpen} />;
  if (gone) return <NotFound />;
  if (detail.isError)
    return (
      <LoadFailed
        what="This question"
        error={detail.error}
        onRetry={() => void detail.refetch()}
        retrying={detail.isFetching}
      />
    );
  return (
    <Stack gap="sm" aria-busy="true" aria-label="Loading the question">
      <Skeleton height={24} width="40%" />
      <Skeleton height={16} />
      <Skeleton height={16} width="80%" />
      <Skeleton height={96} mt="md" />
    </Stack>
  );
}

export interface QuestionDrawerProps {
  id: string | null;
  nextId: string | null;
  onClose: () => void;
  onOpen: (id: string) => void;
}

export function QuestionDrawer({ id, nextId, onClose, onOpen }: QuestionDrawerProps) {
  // Keep the last question on screen while the drawer slides out.
  const [shownId, setShownId] = useState(id);
  if (id !== null && id !== shownId) setShownId(id);

  return (
    <Drawer
      opened={id !== null}
      onClose={onClose}
      position="right"
      size="min(46rem, 100%)"
      title="Question"
      returnFocus={false}
      closeButtonProps={{ 'aria-label': 'Close question' }}
      transitionProps={{ duration: 150 }}
    >
      <SessionEndedAlert />
      {shownId !== null && (
        <QuestionPanel key={shownId} id={shownId} nextId={nextId} onOpen={onOpen} />
      )}
    </Drawer>
  );
}
