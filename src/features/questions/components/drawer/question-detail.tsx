import {
  Alert,
  Anchor,
  Badge,
  Button,
  Divider,
  Group,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useIsMutating, useMutationState } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { JsonBlock } from '@/components/json-block';
import { LoadBoundary } from '@/components/load-boundary';
import { PartBoundary } from '@/components/part-boundary';
import { useShell } from '@/config/shell-context';
import { showBidiControls } from '@/lib/show-bidi';
import { isActionOn } from '../../api/mutations';
import type { Question } from '../../api/schemas';
import { useClosedDraftSeen } from '../../hooks/use-closed-draft-seen';
import { useDraft } from '../../hooks/use-drafts';
import { useAnswerAndNextPreference } from '../../hooks/use-drawer-flow';
import { useHeld } from '../../hooks/use-hold-back';
import { useStatusNow } from '../../hooks/use-status-now';
import {
  describeChange,
  questionPolicy,
  questionVersion,
  statusMeta,
} from '../../utils/question-policy';
import { answerText, isAskHuman, isNotApplicable } from '../../utils/status';
import { cutText, formatBytes } from '../../utils/text';
import { Countdown } from '../shared/countdown';
import { StatusBadge } from '../shared/status-badge';
import { AnswerForm, type AnswerFormHandle } from './answer-form';
import { AnsweredBefore } from './answered-before';
import { ConfirmAction } from './confirm-action';
import {
  LookalikeActions,
  LookalikeAsks,
  LookalikeDialog,
  type LookalikeGroupState,
  type OpenGroup,
  useLookalikeGroup,
  useOpenGroup,
} from './lookalike-group';
import { HeldNote } from './outbox-runner';
import classes from './question-detail.module.css';
import { QuestionDetails, SupersededLink } from './question-details';

/** Question text is shown up to here at first; an answer (which may be a megabyte) up to ANSWER_SLICE. */
const LONG_TEXT = 20_000;
const ANSWER_SLICE = 5_000;

/**
 * Agent-written text sliced at LONG_TEXT characters, whole on request (megabytes freeze a tab), and
 * shown at most CLIPPED_HEIGHT tall at first: a long text (a 1,500-character signature, pasted
 * logs) would otherwise push the answer box below the fold.
 */
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
  const shown = showBidiControls(long && !all ? `${cutText(text, slice)}…` : text);
  const box = useRef<HTMLParagraphElement>(null);
  const [overflows, setOverflows] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new text of the same clipped height resizes nothing the observer sees: measured again.
  useLayoutEffect(() => {
    const node = box.current;
    if (!node || all) return;
    const measure = () => setOverflows(node.scrollHeight > node.clientHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(node);
    return () => observer.disconnect();
  }, [all, shown]);
  const clipped = !all && overflows;
  return (
    <Stack gap={4}>
      <Text
        ref={box}
        className={`${className ?? ''} ${all ? '' : classes.clip}`}
        dir="auto"
        data-testid={testId}
        data-clipped={clipped || undefined}
      >
        {shown}
      </Text>
      {(long || clipped || all) && (
        <Anchor component="button" type="button" size="sm" onClick={() => setAll((v) => !v)}>
          {all
            ? 'Show less'
            : `Show the whole ${what}${long ? ` (${formatBytes(text.length)})` : ''}`}
        </Anchor>
      )}
    </Stack>
  );
}

function QuestionText({ text }: { text: string }) {
  if (!text) return <Text c="dimmed">(The agent sent no question text.)</Text>;
  return <LongText text={text} what="text" className={classes.text} testId="question-text" />;
}

function CurrentResult({ question }: { question: Question }) {
  if (!question.result) return null;
  const answer = answerText(question);
  return (
    <Stack gap={4}>
      <Title order={3} size="h5">
        {statusMeta[question.status].answerHeading}
      </Title>
      {isNotApplicable(question) ? (
        // The status badge above says "Not applicable"; this says what that meant for the agent.
        <Text c="dimmed" size="sm">
          The agent was told the reviewer has no information.
        </Text>
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

export interface QuestionDetailProps {
  question: Question;
  /** The server no longer has it (404 on refresh). */
  gone: boolean;
  /** Shown from a list only, and why it cannot be loaded or changed on its own (no actions). */
  readOnly: string | null;
  nextId: string | null;
  onOpen: (id: string) => void;
}

/**
 * A question on its own, or the look-alike group open around it. The group's machinery (its
 * requests, its dialog, what it remembers) is set up only for a group: most questions are none.
 */
export function QuestionDetail(props: QuestionDetailProps) {
  const group = useOpenGroup(props.question.id);
  return group ? (
    <GroupQuestionDetail {...props} group={group} />
  ) : (
    <QuestionDetailBody {...props} lookalike={null} />
  );
}

function GroupQuestionDetail({ group, ...props }: QuestionDetailProps & { group: OpenGroup }) {
  return <QuestionDetailBody {...props} lookalike={useLookalikeGroup(props.question, group)} />;
}

function QuestionDetailBody({
  question,
  gone,
  readOnly,
  nextId,
  onOpen,
  lookalike,
}: QuestionDetailProps & { lookalike: LookalikeGroupState | null }) {
  const acting = useIsMutating({ predicate: isActionOn(question.id) }) > 0;
  const held = useHeld(question);
  const hasDraft = useDraft(question.id).draft !== null;
  const policy = questionPolicy(question, useStatusNow(question), { gone, hasDraft, readOnly });
  useClosedDraftSeen(question.id, policy.closed !== null && readOnly === null, hasDraft);
  const askHuman = isAskHuman(question);
  const answerForm = useRef<AnswerFormHandle>(null);
  const sendingGroup = lookalike !== null && lookalike.sending !== null;
  const { audit, team } = useShell();
  const History = audit?.History;
  const Team = team?.Team;

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
  // A final action waiting with its undo is no request in flight: the question shows as it will be.
  const { mode, closedReason, canCancel, canMarkNotApplicable, missing } =
    acting && !held ? idleOffer : policy.offer;
  const canAct = closedReason === null;
  const statusLine = useRef<HTMLDivElement>(null);
  const [answerAndNext, setAnswerAndNext] = useAnswerAndNextPreference();
  useEffect(() => {
    // Opening a question (or stepping to the next with j/k) puts the cursor on the drawer, never
    // in the answer box: a shortcut pressed next must not be typed into an answer. `a` or Enter
    // goes to the box. (The focus trap chose the close button before the question had loaded.)
    // Beside the list (split view) a row clicked or opened with Enter keeps the cursor otherwise,
    // and a digit typed there would be a quick answer to a question the row is not.
    const active = document.activeElement;
    if (
      !active ||
      active === document.body ||
      active.matches('.mantine-Drawer-close') ||
      active.closest('[data-question-id]')
    )
      statusLine.current?.focus();
  }, []);
  useEffect(() => {
    // An action that closes the question removes the button that had focus; keep the reviewer
    // in the drawer instead of on <body>.
    if (closedReason !== null && document.activeElement === document.body)
      statusLine.current?.focus();
  }, [closedReason]);

  return (
    <Stack gap="lg">
      <Group
        gap="sm"
        wrap="wrap"
        ref={statusLine}
        tabIndex={-1}
        className={classes.statusLine}
        data-drawer-home
        // Where the drawer's focus trap puts the cursor (not its close button: Enter there closes).
        data-autofocus
      >
        <StatusBadge status={policy.status} size="lg" notApplicable={isNotApplicable(question)} />
        {question.status === 'pending' &&
          (question.expiresAt !== null ? (
            <Countdown
              expiresAt={question.expiresAt}
              sourceId={question.source.id}
              createdAt={question.createdAt}
              size="md"
            />
          ) : (
            <Text span c="dimmed">
              No deadline
            </Text>
          ))}
        {!askHuman && (
          <Badge variant="default" radius="sm" tt="none" ff="monospace">
            {question.toolName}
          </Badge>
        )}
        {lookalike && (
          <Badge variant="filled" color="indigo.8" radius="sm" tt="none">
            {lookalike.members.length} asks
          </Badge>
        )}
      </Group>

      {held && <HeldNote held={held} />}

      <PartBoundary what="The text of this question" resetKey={question.questionText}>
        <QuestionText text={question.questionText} />
      </PartBoundary>

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
          color={gone ? 'red' : readOnly ? 'orange' : 'gray'}
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

      {Team && (
        <LoadBoundary
          what="Claims"
          parts={[Team]}
          quiet
          placeholder={
            <div
              aria-hidden
              className={question.status === 'pending' ? classes.teamPlace : undefined}
            />
          }
        >
          <Team drawer={question} also={lookalike?.members} />
        </LoadBoundary>
      )}

      <PartBoundary what="The answer of this question" resetKey={question.result}>
        <CurrentResult question={question} />
      </PartBoundary>

      {lookalike && (
        <PartBoundary what="The asks of this question" resetKey={lookalike.members}>
          <LookalikeAsks state={lookalike} />
        </PartBoundary>
      )}

      {canAct && (mode === 'answer' || mode === 'edit') && (
        <PartBoundary what="The earlier answers" resetKey={question}>
          <AnsweredBefore question={question} onUse={(text) => answerForm.current?.fill(text)} />
        </PartBoundary>
      )}

      {mode !== null && (
        <PartBoundary what="The answer form" resetKey={question}>
          <AnswerForm
            key={question.id}
            handle={answerForm}
            question={question}
            mode={mode}
            closedReason={closedReason}
            onAnswer={lookalike?.answer}
            extraActions={
              lookalike ? (
                <LookalikeActions state={lookalike} busy={acting} />
              ) : (
                <>
                  {canMarkNotApplicable && (
                    <ConfirmAction
                      key="not-applicable"
                      action="not-applicable"
                      question={question}
                      busy={acting}
                    />
                  )}
                  {canCancel && (
                    <ConfirmAction key="cancel" action="cancel" question={question} busy={acting} />
                  )}
                </>
              )
            }
            busy={acting || sendingGroup}
          />
        </PartBoundary>
      )}
      {lookalike && <LookalikeDialog state={lookalike} />}
      {History && (
        <LoadBoundary what="The history of this question" parts={[History]} quiet>
          <History questions={lookalike ? lookalike.members : [question]} />
        </LoadBoundary>
      )}
      {missing !== undefined && (
        <Text size="sm" c="dimmed" data-testid="missing-actions">
          {missing}
        </Text>
      )}
      {canAct && mode !== null && (
        <Switch
          size="sm"
          label="Go to the next question after each answer"
          checked={answerAndNext}
          onChange={(event) => setAnswerAndNext(event.currentTarget.checked)}
        />
      )}
      {policy.finalResult && (
        <Text size="sm" c="dimmed">
          The result of a {question.toolName} call cannot be changed once sent.
        </Text>
      )}

      <Divider />
      <QuestionDetails question={question} />
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
