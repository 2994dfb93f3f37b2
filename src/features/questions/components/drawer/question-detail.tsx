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
import { useStatusNow } from '../../hooks/use-status-now';
import { questionPath } from '../../utils/paths';
import { describeChange, questionPolicy, questionVersion } from '../../utils/question-policy';
import { answerText, isAskHuman, isNotApplicable } from '../../utils/status';
import { formatBytes } from '../../utils/text';
import { Countdown } from '../shared/countdown';
import { StatusBadge } from '../shared/status-badge';
import { AnswerForm } from './answer-form';
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

export function QuestionDetail({ question, gone, nextId, onOpen }: QuestionDetailProps) {
  const acting = useIsMutating({ predicate: isActionOn(question.id) }) > 0;
  const hasDraft = useDraft(question.id).draft !== null;
  const policy = questionPolicy(question, useStatusNow(question), { gone, hasDraft });
  const askHuman = isAskHuman(question);

  // What changed since the reviewer last saw the question: the outcomes of their own actions
  // are not news, and neither is what they acknowledged with "Got it".
  const ownResults = useMutationState<string>({
    filters: { predicate: isActionOn(question.id), status: 'success' },
    select: (mutation) => questionVersion(mutation.state.data as Question),
  });
  const own = ownResults.includes(questionVersion(question));
  const [seen, setSeen] = useState(question);
  // Remembered here too: the mutation cache forgets the reviewer's own results after a while.
  useEffect(() => {
    if (own) setSeen(question);
  }, [own, question]);
  const change = acting || own ? null : describeChange(seen, question);

  // While an action is in flight the optimistic record already shows its outcome; the form stays
  // as it was, so its spinner and its error land where the reviewer clicked. (Offers keep their
  // identity while unchanged, so this runs only when what is offered changes.)
  const [idleOffer, setIdleOffer] = useState(policy.offer);
  useEffect(() => {
    if (!acting) setIdleOffer(policy.offer);
  }, [acting, policy.offer]);
  const { mode, closedReason, canCancel, canMarkNotApplicable } = acting ? idleOffer : policy.offer;
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
        <StatusBadge status={policy.status} size="lg" />
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

      {change !== null && (
        <Alert
          color="grape"
          variant="light"
          icon={<IconInfoCircle aria-hidden />}
          title="This question changed while you had it open"
          role="status"
        >
          <Stack gap="xs">
            <Text size="sm" className={classes.answer}>
              {change}
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
                onClick={() => setSeen(question)}
              >
                Got it
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}

      {policy.closed && (
        <Alert
          color={gone ? 'red' : 'gray'}
          variant="light"
          role="note"
          title={policy.closed.title}
        >
          <Stack gap={4}>
            <Text size="sm">{policy.closed.explanation}</Text>
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
      {policy.finalResult && (
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
