import {
  Alert,
  Anchor,
  Badge,
  Button,
  CopyButton,
  Divider,
  Group,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useIsMutating, useMutationState } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { JsonBlock } from '@/components/json-block';
import { TimeAgo } from '@/components/time-ago';
import { formatExact } from '@/lib/format-time';
import { isActionOn } from '../../api/mutations';
import type { Question } from '../../api/schemas';
import { useDraft } from '../../hooks/use-drafts';
import { useOverdue } from '../../hooks/use-overdue';
import { questionPath } from '../../utils/paths';
import { answerText, isAskHuman, isNotApplicable, statusLabels } from '../../utils/status';
import { formatBytes } from '../../utils/text';
import { Countdown } from '../shared/countdown';
import { StatusBadge } from '../shared/status-badge';
import { AnswerForm, type AnswerMode } from './answer-form';
import { ConfirmAction } from './confirm-action';
import classes from './question-detail.module.css';

const LONG_TEXT = 20_000;

function QuestionText({ text }: { text: string }) {
  const [all, setAll] = useState(false);
  if (!text) return <Text c="dimmed">(The agent sent no question text.)</Text>;
  const long = text.length > LONG_TEXT;
  return (
    <Stack gap={4}>
      <Text className={classes.text} dir="auto" data-testid="question-text">
        {long && !all ? `${text.slice(0, LONG_TEXT)}…` : text}
      </Text>
      {long && (
        <Anchor component="button" type="button" size="sm" onClick={() => setAll((v) => !v)}>
          {all ? 'Show less' : `Show the whole text (${formatBytes(text.length)})`}
        </Anchor>
      )}
    </Stack>
  );
}

/** A snapshot of what a question is on the server, to notice when someone else changes it. */
function fingerprint(question: Question): string {
  return `${question.status}|${JSON.stringify(question.result)}|${question.supersededBy ?? ''}`;
}

function describeChange(question: Question): string {
  switch (question.status) {
    case 'resolved': {
      if (isNotApplicable(question)) return 'Someone else marked this question not applicable.';
      const answer = answerText(question);
      return answer !== null
        ? `Answered by someone else: “${answer}”`
        : 'Resolved by someone else.';
    }
    case 'cancelled':
      return 'Someone else cancelled this question.';
    case 'expired':
      return 'This question expired before it was answered.';
    case 'superseded':
      return 'A newer answer to the same question replaced this one.';
    case 'pending':
      return 'This question changed on the server.';
  }
}

function closedExplanation(question: Question, overdue: boolean): string | null {
  if (question.status === 'pending' && overdue) {
    return 'This question has expired: its time ran out, so it no longer takes answers and the agent has stopped waiting.';
  }
  switch (question.status) {
    case 'expired':
      return 'This question expired without an answer; the agent stopped waiting for it.';
    case 'cancelled':
      return 'This question was cancelled; the agent gets no answer for it.';
    case 'superseded':
      return 'A newer answer to the same question replaced this one, so it can no longer be changed here.';
    default:
      return null;
  }
}

function CurrentResult({ question }: { question: Question }) {
  if (!question.result) return null;
  const answer = answerText(question);
  return (
    <Stack gap={4}>
      <Title order={3} size="h5">
        {question.status === 'superseded' ? 'Earlier answer' : 'Current answer'}
      </Title>
      {isNotApplicable(question) ? (
        <Group gap="xs">
          <Badge color="orange" variant="light" radius="sm" tt="none">
            Not applicable
          </Badge>
          <Text span c="dimmed" size="sm">
            The agent was told the reviewer has no information.
          </Text>
        </Group>
      ) : answer !== null && Object.keys(question.result).length === 1 ? (
        <Text className={classes.answer} dir="auto" data-testid="current-answer">
          {answer}
        </Text>
      ) : (
        <div className={classes.json}>
          <JsonBlock value={question.result} label="Result" />
        </div>
      )}
    </Stack>
  );
}

function Timestamp({ at }: { at: number | null }) {
  if (at === null)
    return (
      <Text span c="dimmed">
        —
      </Text>
    );
  return (
    <>
      {formatExact(at)} (<TimeAgo at={at} />)
    </>
  );
}

/** To the question that replaced this one, keeping the list's view and history behind it. */
function SupersededLink({
  id,
  children,
  ...style
}: {
  id: string;
  children: ReactNode;
  ff?: string;
  size: string;
}) {
  const location = useLocation();
  return (
    <Anchor
      component={Link}
      to={{ pathname: questionPath(id), search: location.search }}
      state={location.state}
      replace
      {...style}
    >
      {children}
    </Anchor>
  );
}

export interface QuestionDetailProps {
  question: Question;
  /** The server no longer has it (404 on refresh). */
  gone: boolean;
  nextId: string | null;
  onOpen: (id: string) => void;
}

/** Which form and which buttons the drawer shows; frozen while an action is in flight. */
interface Layout {
  mode: AnswerMode | null;
  closedReason: string | null;
  canCancel: boolean;
  canMarkNotApplicable: boolean;
}

function layoutFor(question: Question, gone: boolean, overdue: boolean, hasDraft: boolean): Layout {
  const askHuman = isAskHuman(question);
  const closed =
    gone || overdue || (question.status !== 'pending' && question.status !== 'resolved');
  const closedReason = closed
    ? ((gone
        ? 'This question no longer exists on the server.'
        : closedExplanation(question, overdue)) ?? 'closed')
    : null;
  let mode: AnswerMode | null;
  if (question.status === 'pending') mode = askHuman ? 'answer' : 'json';
  else if (question.status === 'resolved') mode = askHuman ? 'edit' : null;
  else mode = askHuman ? 'answer' : 'json';
  // A closed question shows the form only to keep the reviewer's draft visible and copyable.
  if (closedReason !== null && !hasDraft) mode = null;
  return {
    mode,
    closedReason,
    canCancel: closedReason === null && question.status === 'pending',
    canMarkNotApplicable: closedReason === null && askHuman,
  };
}

export function QuestionDetail({ question, gone, nextId, onOpen }: QuestionDetailProps) {
  const overdue = useOverdue(question);
  const acting = useIsMutating({ predicate: isActionOn(question.id) }) > 0;
  const ownResults = useMutationState<string>({
    filters: { predicate: isActionOn(question.id), status: 'success' },
    select: (mutation) => fingerprint(mutation.state.data as Question),
  });
  const [known, setKnown] = useState(() => new Set([fingerprint(question)]));
  const current = fingerprint(question);
  // The reviewer's own results are remembered here too: the mutation cache forgets them after a while.
  const ownNew = ownResults.filter((result) => !known.has(result));
  if (ownNew.length > 0) setKnown(new Set([...known, ...ownNew]));
  const changedElsewhere = !acting && !known.has(current) && !ownResults.includes(current);
  const askHuman = isAskHuman(question);
  const hasDraft = useDraft(question.id).draft !== null;
  const explanation = gone
    ? 'This question no longer exists on the server.'
    : closedExplanation(question, overdue);

  // While an action is in flight the optimistic record already shows its outcome; the form stays
  // as it was, so its spinner and its error land where the reviewer clicked.
  const live = layoutFor(question, gone, overdue, hasDraft);
  const [stable, setStable] = useState(live);
  if (!acting && JSON.stringify(stable) !== JSON.stringify(live)) setStable(live);
  const { mode, closedReason, canCancel, canMarkNotApplicable } = acting ? stable : live;
  const canAct = closedReason === null;
  const statusLine = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // An action that closes the question removes the button that had focus; keep the reviewer
    // in the drawer instead of on <body>.
    if (closedReason !== null && document.activeElement === document.body)
      statusLine.current?.focus();
  }, [closedReason]);

  return (
    <Stack gap="lg">
      <Group gap="sm" wrap="wrap" ref={statusLine} tabIndex={-1} className={classes.statusLine}>
        <StatusBadge question={question} overdue={overdue} size="lg" />
        {question.status === 'pending' && question.expiresAt !== null && (
          <Countdown expiresAt={question.expiresAt} size="md" />
        )}
        {!askHuman && (
          <Badge variant="default" radius="sm" tt="none" ff="monospace">
            {question.toolName}
          </Badge>
        )}
      </Group>

      <QuestionText text={question.questionText} />

      {changedElsewhere && (
        <Alert
          color="grape"
          variant="light"
          icon={<IconInfoCircle aria-hidden />}
          title="This question changed while you had it open"
          role="status"
        >
          <Stack gap="xs">
            <Text size="sm" className={classes.answer}>
              {describeChange(question)}
            </Text>
            {hasDraft && (
              <Text size="sm">
                What you typed is kept below{canAct ? '' : ' (read-only): copy it if you need it'}.
              </Text>
            )}
            <Group>
              <Button
                size="compact-sm"
                variant="light"
                color="grape"
                onClick={() => setKnown((set) => new Set(set).add(current))}
              >
                Got it
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}

      {explanation && (
        <Alert
          color={gone ? 'red' : 'gray'}
          variant="light"
          role="note"
          title={
            gone
              ? 'Not found'
              : `${statusLabels[overdue ? 'expired' : question.status]}: no actions`
          }
        >
          <Stack gap={4}>
            <Text size="sm">{explanation}</Text>
            {question.supersededBy && (
              <SupersededLink id={question.supersededBy} size="sm">
                Open the question that superseded it
              </SupersededLink>
            )}
          </Stack>
        </Alert>
      )}

      <CurrentResult question={question} />

      {mode !== null && (
        <AnswerForm
          key={question.id}
          question={question}
          mode={mode}
          closedReason={closedReason}
          extraActions={
            <>
              {canMarkNotApplicable && (
                <ConfirmAction action="not-applicable" question={question} busy={acting} />
              )}
              {canCancel && <ConfirmAction action="cancel" question={question} busy={acting} />}
            </>
          }
          busy={acting}
        />
      )}
      {question.status === 'resolved' && !askHuman && (
        <Text size="sm" c="dimmed">
          The result of a {question.toolName} call cannot be changed once sent.
        </Text>
      )}

      <Divider />
      <Stack gap="sm">
        <Title order={3} size="h5">
          Details
        </Title>
        <dl className={classes.details}>
          <dt>Tags</dt>
          <dd>
            {question.tags.length ? (
              <Group gap={4}>
                {question.tags.map((tag) => (
                  <Badge key={tag} variant="light" color="gray" radius="sm" tt="none" maw="100%">
                    {tag}
                  </Badge>
                ))}
              </Group>
            ) : (
              '—'
            )}
          </dd>
          <dt>User</dt>
          <dd>{question.userId ?? '—'}</dd>
          <dt>Tool</dt>
          <dd>
            <Text span ff="monospace" size="sm">
              {question.toolName}
            </Text>
          </dd>
          <dt>Answer format</dt>
          <dd>{question.answerFormat ?? '—'}</dd>
          <dt>Asked</dt>
          <dd>
            <Timestamp at={question.createdAt} />
          </dd>
          <dt>Expires</dt>
          <dd>
            <Timestamp at={question.expiresAt} />
          </dd>
          <dt>Resolved</dt>
          <dd>
            <Timestamp at={question.resolvedAt} />
          </dd>
          <dt>Answer valid until</dt>
          <dd>
            <Timestamp at={question.validUntil} />
          </dd>
          {question.supersededBy && (
            <>
              <dt>Superseded by</dt>
              <dd>
                <SupersededLink id={question.supersededBy} ff="monospace" size="sm">
                  {question.supersededBy}
                </SupersededLink>
              </dd>
            </>
          )}
          <dt>ID</dt>
          <dd>
            <Group gap={6} wrap="nowrap">
              <Text span ff="monospace" size="sm">
                {question.id}
              </Text>
              <CopyButton value={question.id}>
                {({ copied, copy }) => (
                  <Button size="compact-xs" variant="subtle" onClick={copy}>
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </dd>
        </dl>
        {(
          [
            ['Arguments', question.args],
            ['Scope', question.scope],
          ] as const
        ).map(
          ([label, value]) =>
            value && (
              <div key={label} className={classes.json}>
                <Text size="sm" c="dimmed" mb={4}>
                  {label}
                </Text>
                <JsonBlock value={value} label={label} />
              </div>
            ),
        )}
      </Stack>
      {nextId && (
        <Group justify="flex-end">
          <Button variant="subtle" onClick={() => onOpen(nextId)}>
            Next question (j)
          </Button>
        </Group>
      )}
    </Stack>
  );
}
