import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Input.layer.css';
import { Alert, Button, Group, List, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { isApiError } from '@/lib/api-client';
import type { Question } from '../../api/schemas';
import { useBulkRun } from '../../hooks/use-bulk-run';
import { checkAnswer } from '../../utils/answer-format';
import { type BulkAction, type BulkOutcome, bulkSummary } from '../../utils/bulk';
import { notApplicableEffect } from '../../utils/question-policy';
import { truncateText } from '../../utils/text';
import { actionErrorText } from './action-error';

const specs: Record<
  BulkAction,
  {
    title: (n: string) => string;
    body: (questions: readonly Question[]) => string;
    confirm: string;
    color: string;
  }
> = {
  'not-applicable': {
    title: (n) => `Mark ${n} not applicable?`,
    // What each agent is told depends on its system.
    body: notApplicableEffect,
    confirm: 'Mark not applicable',
    // Orange 9 with white text is 4.3:1, under AA; the primary colour passes.
    color: 'blue',
  },
  cancel: {
    title: (n) => `Cancel ${n}?`,
    body: () =>
      'Each question is closed without an answer; its agent gets no reply. This cannot be undone.',
    confirm: 'Cancel questions',
    color: 'red.9',
  },
  answer: {
    title: (n) => `Answer ${n} with one text?`,
    body: () => 'The same answer is sent to each of them.',
    confirm: 'Send to all',
    color: 'blue',
  },
};

/** Each failure of a run, with why (the server's own words too); nothing when none failed. */
export function BulkFailureList({ failures }: { failures: BulkOutcome[] }) {
  if (failures.length === 0) return null;
  return (
    <List size="sm" spacing="xs" data-testid="bulk-failures">
      {failures.map(({ question, error }) => {
        const { title } = actionErrorText(error);
        // "Busy" is a moment's wait, not the server's fault: its detail is the portal's own words
        // (the Bilby adapter's), so it is not quoted as the server's.
        const busy = isApiError(error) && error.kind === 'busy';
        const detail = isApiError(error) && !busy ? error.detail : null;
        return (
          <List.Item key={question.id}>
            <Text span fw={500} dir="auto">
              “{truncateText(question.questionText, 120) || question.id}”
            </Text>
            : {title}
            {busy ? ': try again in a moment' : ''}
            {detail ? ` (the server said: “${truncateText(detail, 300)}”)` : ''}.
          </List.Item>
        );
      })}
    </List>
  );
}

export function questionsWord(count: number): string {
  return `${count} question${count === 1 ? '' : 's'}`;
}

export interface BulkDialogProps {
  action: BulkAction | null;
  questions: Question[];
  onClose: () => void;
  /** After a run: the questions that failed, which stay selected. */
  onFinished: (failedIds: string[]) => void;
}

/**
 * One confirmation for a bulk action, naming how many; then the requests (useBulkRun) and the
 * outcome per question. Nothing is sent again on its own: failures are listed and stay selected.
 */
export function BulkDialog({ action, questions, onClose, onFinished }: BulkDialogProps) {
  // The questions as they were when the reviewer confirmed (the list moves on underneath).
  const [sent, setSent] = useState<Question[] | null>(null);
  const [failures, setFailures] = useState<BulkOutcome[] | null>(null);
  const [text, setText] = useState('');
  const [textError, setTextError] = useState<string | null>(null);
  const { run: runEach, progress } = useBulkRun();
  const running = sent !== null && failures === null;
  const spec = action ? specs[action] : null;

  const close = () => {
    if (running) return;
    setSent(null);
    setFailures(null);
    setTextError(null);
    onClose();
  };

  const run = async () => {
    if (!action) return;
    let answer = '';
    if (action === 'answer') {
      const check = checkAnswer(text);
      if (!check.ok) {
        setTextError(check.message);
        return;
      }
      answer = check.answer;
    }
    const batch = [...questions];
    setSent(batch);
    const failed = await runEach(action, batch, { answer });
    setFailures(failed);
    if (action === 'answer' && failed.length === 0) setText('');
    onFinished(failed.map((f) => f.question.id));
  };

  const total = sent?.length ?? questions.length;
  return (
    <Modal
      opened={action !== null}
      onClose={close}
      title={spec ? spec.title(questionsWord(total)) : ''}
      centered
      // Above the drawer when a look-alike group's action opens it there.
      zIndex={400}
      size="lg"
      closeOnEscape={!running}
      closeOnClickOutside={!running}
      withCloseButton={!running}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {spec && action && (
        <Stack gap="md">
          {failures === null ? (
            <>
              <Text size="sm">{spec.body(sent ?? questions)}</Text>
              {action === 'answer' && (
                <Textarea
                  label="Answer"
                  autosize
                  minRows={3}
                  maxRows={10}
                  value={text}
                  onChange={(event) => {
                    setText(event.currentTarget.value);
                    setTextError(null);
                  }}
                  error={textError}
                  readOnly={running}
                  data-autofocus
                />
              )}
              {running && (
                <Text size="sm" role="status">
                  Sending: {progress} of {total} done…
                </Text>
              )}
              <Group justify="flex-end" gap="xs">
                <Button
                  variant="default"
                  onClick={close}
                  disabled={running}
                  data-autofocus={action === 'answer' ? undefined : true}
                >
                  Keep them
                </Button>
                <Button color={spec.color} onClick={() => void run()} loading={running}>
                  {spec.confirm} ({total})
                </Button>
              </Group>
            </>
          ) : (
            <>
              <Alert
                role="status"
                color={failures.length === 0 ? 'green' : 'red'}
                title={`${bulkSummary(action, total - failures.length, total)}.`}
              >
                {failures.length === 0
                  ? 'Every agent has been told.'
                  : `${questionsWord(failures.length)} failed and stay selected; nothing was sent again. Open one to see where it stands.`}
              </Alert>
              <BulkFailureList failures={failures} />
              <Group justify="flex-end">
                <Button onClick={close} data-autofocus>
                  Done
                </Button>
              </Group>
            </>
          )}
        </Stack>
      )}
    </Modal>
  );
}
