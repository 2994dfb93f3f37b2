import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Input.layer.css';
import { Alert, Button, Group, List, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useMemo, useState } from 'react';
import { HOLDERS_EVENT, type HoldersEventDetail } from '@/config/shell-context';
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

/**
 * Which of `questions` someone else has claimed, and who: asked of the team's part, which answers
 * when it is loaded (no portal server, or not yet: none).
 */
export function claimedByOthers(questions: readonly Question[]): Map<Question, string> {
  const detail: HoldersEventDetail = { questions, holders: new Map() };
  document.dispatchEvent(new CustomEvent(HOLDERS_EVENT, { detail }));
  return detail.holders as Map<Question, string>;
}

/** "bob has claimed 1 of them", "2 of them are claimed by others (bob, carol)". */
function claimedNote(holders: ReadonlyMap<Question, string>, total: number): string {
  const names = [...new Set(holders.values())];
  const count = holders.size === total ? 'all of them' : `${holders.size} of them`;
  return names.length === 1
    ? `${names[0]} has claimed ${count}.`
    : `${count[0]?.toUpperCase()}${count.slice(1)} ${holders.size === 1 ? 'is' : 'are'} claimed by others (${names.join(', ')}).`;
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
  // Questions someone else holds were left alone at the reviewer's word: they stay selected.
  const [skipped, setSkipped] = useState<Question[]>([]);
  const { run: runEach, progress } = useBulkRun();
  const running = sent !== null && failures === null;
  const spec = action ? specs[action] : null;
  // Asked each time the dialog opens: as the drawer asks before answering a claimed question.
  const holders = useMemo(
    () => (action ? claimedByOthers(questions) : new Map<Question, string>()),
    [action, questions],
  );

  const close = () => {
    if (running) return;
    setSent(null);
    setFailures(null);
    setSkipped([]);
    setTextError(null);
    onClose();
  };

  const run = async (skipClaimed = false) => {
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
    const left = skipClaimed ? questions.filter((question) => holders.has(question)) : [];
    const batch = questions.filter((question) => !left.includes(question));
    setSkipped(left);
    setSent(batch);
    const failed = await runEach(action, batch, { answer });
    setFailures(failed);
    if (action === 'answer' && failed.length === 0) setText('');
    onFinished([...failed.map((f) => f.question.id), ...left.map((question) => question.id)]);
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
              {holders.size > 0 && sent === null && (
                <Alert
                  color="orange"
                  title={claimedNote(holders, total)}
                  // Orange text on its light background is under AA: the title in the text colour.
                  styles={{ title: { color: 'var(--mantine-color-text)' } }}
                  data-testid="bulk-claimed"
                >
                  <List size="sm">
                    {[...holders].map(([question, holder]) => (
                      <List.Item key={question.id}>
                        <Text span dir="auto">
                          “{truncateText(question.questionText, 120) || question.id}”
                        </Text>{' '}
                        (claimed by {holder})
                      </List.Item>
                    ))}
                  </List>
                </Alert>
              )}
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
                {holders.size > 0 && holders.size < total && sent === null && (
                  <Button variant="default" onClick={() => void run(true)}>
                    Only the unclaimed ({total - holders.size})
                  </Button>
                )}
                <Button color={spec.color} onClick={() => void run()} loading={running}>
                  {spec.confirm}
                  {holders.size > 0 && sent === null ? ' anyway' : ''} ({total})
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
                {skipped.length > 0 &&
                  ` ${questionsWord(skipped.length)} claimed by someone else ${skipped.length === 1 ? 'was' : 'were'} left alone and stay${skipped.length === 1 ? 's' : ''} selected.`}
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
