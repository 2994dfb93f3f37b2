import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useCancelQuestion, useMarkNotApplicable } from '../api/mutations';
import type { Question } from '../api/schemas';
import { NOT_APPLICABLE_ANSWER } from '../api/schemas';
import { ActionError } from './action-error';

interface ConfirmSpec {
  trigger: string;
  title: string;
  body: string;
  confirm: string;
  color: string;
  done: string;
}

const specs = {
  'not-applicable': {
    trigger: 'Not applicable',
    title: 'Mark this question not applicable?',
    body: `The agent is told: “${NOT_APPLICABLE_ANSWER}” and carries on without an answer.`,
    confirm: 'Mark not applicable',
    color: 'orange',
    done: 'Marked not applicable',
  },
  cancel: {
    trigger: 'Cancel question',
    title: 'Cancel this question?',
    body: 'The question is closed without an answer. The agent gets no reply for it. This cannot be undone.',
    confirm: 'Cancel question',
    color: 'red',
    done: 'Question cancelled',
  },
} satisfies Record<string, ConfirmSpec>;

export interface ConfirmActionProps {
  action: keyof typeof specs;
  question: Question;
  busy: boolean;
  onPendingChange: (pending: boolean) => void;
  onDone: (question: Question) => void;
}

/** Not applicable and Cancel ask first: both end the question for the agent. */
export function ConfirmAction({
  action,
  question,
  busy,
  onPendingChange,
  onDone,
}: ConfirmActionProps) {
  const spec = specs[action];
  const [opened, setOpened] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const notApplicable = useMarkNotApplicable();
  const cancel = useCancelQuestion();
  const mutation = action === 'cancel' ? cancel : notApplicable;

  const confirm = () => {
    setError(null);
    onPendingChange(true);
    mutation.mutate(
      { id: question.id },
      {
        onSuccess: (updated) => {
          setOpened(false);
          notifications.show({
            color: 'green',
            title: spec.done,
            message: 'The agent has been told.',
          });
          onDone(updated);
        },
        onError: setError,
        onSettled: () => onPendingChange(false),
      },
    );
  };

  return (
    <>
      <Button
        variant="default"
        color={spec.color}
        onClick={() => {
          setError(null);
          setOpened(true);
        }}
        disabled={busy}
        loading={mutation.isPending}
      >
        {spec.trigger}
      </Button>
      <Modal
        opened={opened}
        onClose={() => !mutation.isPending && setOpened(false)}
        title={spec.title}
        centered
        zIndex={400}
      >
        <Stack gap="md">
          <Text size="sm">{spec.body}</Text>
          {error !== null && <ActionError error={error} />}
          <Group justify="flex-end" gap="xs">
            <Button
              variant="default"
              onClick={() => setOpened(false)}
              disabled={mutation.isPending}
              data-autofocus
            >
              Keep it
            </Button>
            <Button
              color={spec.color === 'orange' ? 'orange.9' : 'red.8'}
              onClick={confirm}
              loading={mutation.isPending}
            >
              {spec.confirm}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
