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
import { PartBoundary } from '@/components/part-boundary';
import { TimeAgo } from '@/components/time-ago';
import { jsonText } from '@/lib/bounded-json';
import { formatExact } from '@/lib/format-time';
import { isActionOn } from '../../api/mutations';
import type { Question } from '../../api/schemas';
import { useDraft } from '../../hooks/use-drafts';
import { useOverdue } from '../../hooks/use-overdue';
import { questionPath } from '../../utils/paths';
import { answerText, isAskHuman, isNotApplicable, statusLabels } from '../../utils/status';
import { formatBytes, repeatKeys, truncateText } from '../../utils/text';
import badge from '../shared/badge.module.css';
import { Countdown } from '../shared/countdown';
import { StatusBadge } from '../shared/status-badge';
import { AnswerForm, type AnswerMode } from './answer-form';
import { ConfirmAction } from './confirm-action';
import classes from './question-detail.module.css';

/** Question text is shown up to here at first; an answer (which may be a megabyte) up to ANSWER_SLICE. */
const LONG_TEXT = 20_000;
const ANSWER_SLICE = 5_000;

/** Agent-written text sliced at LONG_TEXT characters, whole on request (megabytes freeze a tab). */
function LongText({
  text,
  what,
  className,
  testId,
  slice = LONG_TEXT,
}: {
  text: string;
  what: string;
  className: string | undefined;
  testId: string;
  slice?: number;
}) {
  const [all, setAll] = useState(false);
  const long = text.length > slice;
  return (
    <Stack gap={4}>
      <Text className={className} dir="auto" data-testid={testId}>
        {long && !all ? `${text.slice(0, slice)}…` : text}
      </Text>
      {long && (
        <Anchor component="button" type="button" size="sm" onClick={() => setAll((v) => !v)}>
          {all ? 'Show less' : `Show the whole ${what} (${formatBytes(text.length)})`}
        </Anchor>
      )}
    </Stack>
  );
}

function QuestionText({ text }: { text: string }) {
  if (!text) return <Text c="dimmed">(The agent sent no question text.)</Text>;
  return <LongText text={text} what="text" className={classes.text} testId="question-text" />;
}

/** Tags in the drawer: a good many, all of them on request (an agent may send thousands). */
const DRAWER_TAGS = 50;

function Tags({ tags }: { tags: string[] }) {
  const [all, setAll] = useState(false);
  if (tags.length === 0) return <>—</>;
  const shown = all ? tags.slice(0, ALL_TAGS) : tags.slice(0, DRAWER_TAGS);
  const keys = repeatKeys(shown);
  return (
    <Group gap={4}>
      {shown.map((tag, index) => (
        <span
          key={keys[index]}
          className={`${badge.badge} ${badge.light} ${classes.tag}`}
          data-color="gray"
        >
          {truncateText(tag, 200)}
        </span>
      ))}
      {tags.length > shown.length &&
        (all ? (
          <Text span size="sm" c="dimmed">
            and {(tags.length - shown.length).toLocaleString('en')} more
          </Text>
        ) : (
          <Anchor component="button" type="button" size="sm" onClick={() => setAll(true)}>
            Show all {tags.length.toLocaleString('en')} tags
          </Anchor>
        ))}
    </Group>
  );
}

/** "Show all" stops here: 10,000 badges are as many as a page can lay out at once. */
const ALL_TAGS = 10_000;

const fingerprints = new WeakMap<Question, string>();

/** A snapshot of what a question is on the server, to notice when someone else changes it. */
function fingerprint(question: Question): string {
  let known = fingerprints.get(question);
  if (known === undefined) {
    // Bounded: a result can be nested thousands of levels deep (JSON.stringify would throw) or
    // megabytes long. A change past the first 20,000 characters still shows: every answer and
    // edit sets resolved_at anew.
    const result = jsonText(question.result, { maxDepth: 20, maxChars: 20_000 }).text;
    known = `${question.status}|${question.resolvedAt}|${result}|${question.supersededBy ?? ''}`;
    fingerprints.set(question, known);
  }
  return known;
}

function describeChange(question: Question): string {
  switch (question.status) {
    case 'resolved': {
      if (isNotApplicable(question)) return 'Someone else marked this question not applicable.';
      const answer = answerText(question);
      return answer !== null
        ? `Answered by someone else: “${truncateText(answer, 500)}”`
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
        <LongText
          text={answer}
          what="answer"
          className={classes.answer}
          testId="current-answer"
          slice={ANSWER_SLICE}
        />
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
  /** Shown from a list only, and why it cannot be loaded or changed on its own (no actions). */
  readOnly: string | null;
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

function layoutFor(
  question: Question,
  gone: boolean,
  readOnly: string | null,
  overdue: boolean,
  hasDraft: boolean,
): Layout {
  const askHuman = isAskHuman(question);
  const closed =
    gone ||
    readOnly !== null ||
    overdue ||
    (question.status !== 'pending' && question.status !== 'resolved');
  const closedReason = closed
    ? (readOnly ??
      (gone
        ? 'This question no longer exists on the server.'
        : closedExplanation(question, overdue)) ??
      'closed')
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

export function QuestionDetail({ question, gone, readOnly, nextId, onOpen }: QuestionDetailProps) {
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
  const explanation =
    readOnly ??
    (gone ? 'This question no longer exists on the server.' : closedExplanation(question, overdue));

  // While an action is in flight the optimistic record already shows its outcome; the form stays
  // as it was, so its spinner and its error land where the reviewer clicked.
  const live = layoutFor(question, gone, readOnly, overdue, hasDraft);
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

      <PartBoundary what="The text of this question" resetKey={question.questionText}>
        <QuestionText text={question.questionText} />
      </PartBoundary>

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
          color={gone ? 'red' : readOnly ? 'orange' : 'gray'}
          variant="light"
          role="note"
          title={
            readOnly
              ? 'Shown from the list only: no actions'
              : gone
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

      <PartBoundary what="The answer of this question" resetKey={question.result}>
        <CurrentResult question={question} />
      </PartBoundary>

      {mode !== null && (
        <PartBoundary what="The answer form" resetKey={question}>
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
        </PartBoundary>
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
        <PartBoundary what="The details of this question" resetKey={question}>
          <dl className={classes.details}>
            <dt>Tags</dt>
            <dd>
              <Tags tags={question.tags} />
            </dd>
            <dt>User</dt>
            <dd>{question.userId === null ? '—' : truncateText(question.userId, 1000)}</dd>
            <dt>Tool</dt>
            <dd>
              <Text span ff="monospace" size="sm">
                {truncateText(question.toolName, 1000)}
              </Text>
            </dd>
            <dt>Answer format</dt>
            <dd>
              {question.answerFormat === null ? '—' : truncateText(question.answerFormat, 1000)}
            </dd>
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
        </PartBoundary>
        {(
          [
            ['Arguments', 'The arguments of this question', question.args],
            ['Scope', 'The scope of this question', question.scope],
          ] as const
        ).map(
          ([label, what, value]) =>
            value && (
              <div key={label} className={classes.json}>
                <Text size="sm" c="dimmed" mb={4}>
                  {label}
                </Text>
                <PartBoundary what={what} resetKey={value}>
                  <JsonBlock value={value} label={label} />
                </PartBoundary>
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
