import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { flushSync } from 'react-dom';
import { usePainted } from '@/lib/use-painted';
import { useCancelQuestion, useMarkNotApplicable } from '../../api/mutations';
import type { Question } from '../../api/schemas';
import { useDrawerFlow } from '../../hooks/use-drawer-flow';
import { useHoldBack } from '../../hooks/use-hold-back';
import { useKeys } from '../../hooks/use-shortcuts';
import { notApplicableEffect } from '../../utils/question-policy';
import { ActionError } from './action-error';

const specs = {
  'not-applicable': {
    trigger: 'Not applicable',
    key: 'n',
    title: 'Mark this question not applicable?',
    // What the agent is told depends on its system.
    body: notApplicableEffect,
    confirm: 'Mark not applicable',
    confirmColor: 'orange.9',
    done: 'Marked not applicable',
    useAction: useMarkNotApplicable,
  },
  cancel: {
    trigger: 'Cancel question',
    key: 'c',
    title: 'Cancel this question?',
    body: () =>
      'The question is closed without an answer. The agent gets no reply for it. This cannot be undone.',
    confirm: 'Cancel question',
    confirmColor: 'red.8',
    done: 'Question cancelled',
    useAction: useCancelQuestion,
  },
} as const;

export interface ConfirmActionProps {
  action: keyof typeof specs;
  question: Question;
  /** Another action on this question is in flight. */
  busy: boolean;
}

/** Not applicable and Cancel ask first: both end the question for the agent. */
export function ConfirmAction({ action, question, busy }: ConfirmActionProps) {
  const spec = specs[action];
  const [opened, setOpened] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // Only the mutation this button sends (an instance never changes its action).
  const mutation = spec.useAction();
  const flow = useDrawerFlow();
  // The closed dialog is mounted once the question has painted: two of them on every question
  // opened held up its first paint. Asked for sooner, it is mounted closed first, so that it knows
  // where the focus was and gives it back when closed.
  const [wanted, setWanted] = useState(false);
  const dialogMounted = usePainted() || wanted;
  const ask = () => {
    setError(null);
    if (!dialogMounted) flushSync(() => setWanted(true));
    setOpened(true);
  };
  useKeys({
    [spec.key]: (event) => {
      if (busy || mutation.isPending) return;
      event.preventDefault();
      ask();
    },
  });

  const holdBack = useHoldBack();
  const confirm = () => {
    setError(null);
    // A final one waits its few seconds of undo (the runner sends it).
    if (holdBack(question, action)) {
      setOpened(false);
      flow.done(question.id);
      return;
    }
    mutation.mutate(
      { id: question.id },
      {
        onSuccess: () => {
          setOpened(false);
          notifications.show({
            color: 'green',
            title: spec.done,
            message: 'The agent has been told.',
          });
          flow.done(question.id);
        },
        onError: setError,
      },
    );
  };

  return (
    <>
      <Button
        variant="default"
        onClick={ask}
        aria-keyshortcuts={spec.key}
        disabled={busy && !mutation.isPending}
        loading={mutation.isPending}
      >
        {spec.trigger}
      </Button>
      {dialogMounted && (
        <Modal
          opened={opened}
          onClose={() => !mutation.isPending && setOpened(false)}
          title={spec.title}
          centered
          zIndex={400}
        >
          <Stack gap="md">
            <Text size="sm">{spec.body([question])}</Text>
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
              <Button color={spec.confirmColor} onClick={confirm} loading={mutation.isPending}>
                {spec.confirm}
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}
    </>
  );
}
