import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useId, useMemo, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { TimeAgo } from '@/components/time-ago';
import type { PromptAnswer, Question } from '../../api/schemas';
import { useBulkRun } from '../../hooks/use-bulk-run';
import { useDraft } from '../../hooks/use-drafts';
import { useDrawerFlow } from '../../hooks/use-drawer-flow';
import { useLookalikesInView } from '../../hooks/use-lookalikes';
import { useRecentAnswers } from '../../hooks/use-recent-answers';
import { useKeys } from '../../hooks/use-shortcuts';
import { useQuestionsNow } from '../../hooks/use-status-now';
import { quickAnswers } from '../../utils/answer-format';
import { type BulkAction, type BulkOutcome, bulkActions, bulkSummary } from '../../utils/bulk';
import { askersSpanned, compareAsked } from '../../utils/lookalikes';
import { questionPath, withoutGroup } from '../../utils/paths';
import { isNotApplicable } from '../../utils/status';
import { Countdown } from '../shared/countdown';
import { StatusBadge } from '../shared/status-badge';
import { useKnownQuestions } from './answered-before';
import { BulkDialog, BulkFailureList, questionsWord } from './bulk-dialog';
import classes from './question-detail.module.css';

/** The group open in the drawer, kept while it is open. */
export interface OpenGroup {
  /** Every ask the group has had while open, oldest first (answered ones stay, with their results). */
  members: Question[];
  /** After a group action: the asks that failed stay ticked, the others are unticked. */
  keepSelected: (memberIds: readonly string[], failedIds: readonly string[]) => void;
}

/** `current` with the asks of `kept` it no longer has (answered: they left the pending view). */
function mergeMembers(kept: Question[], current: Question[]): Question[] {
  const ids = new Set(current.map((q) => q.id));
  const gone = kept.filter((q) => !ids.has(q.id));
  if (gone.length === 0) return current;
  return [...current, ...gone].sort(compareAsked);
}

function sameMembers(a: Question[], b: Question[]): boolean {
  return a.length === b.length && a.every((q, index) => q === b[index]);
}

/**
 * The members of the group open around `openId`, kept while it stays open: answering the group
 * takes its asks out of the pending view (and so out of the grouping), and the drawer must still
 * show what happened to each. Null when no group is asked for, or the question is in none.
 */
export function useOpenGroup(openId: string): OpenGroup | null {
  const inView = useLookalikesInView();
  const lead = inView?.groupOpen ? inView.lookalikes.leadOf.get(openId) : undefined;
  const current = lead === undefined ? undefined : inView?.lookalikes.groups.get(lead);
  const [kept, setKept] = useState<Question[] | null>(null);
  if (current) {
    const members = kept ? mergeMembers(kept, current) : current;
    if (!kept || !sameMembers(kept, members)) setKept(members);
  }
  const setSome = inView?.setSome;
  return useMemo(
    () =>
      kept && setSome && inView?.groupOpen
        ? {
            members: kept,
            keepSelected: (memberIds, failedIds) => {
              setSome(memberIds, false);
              setSome(failedIds, true);
            },
          }
        : null,
    [kept, setSome, inView?.groupOpen],
  );
}

interface Outcome {
  action: BulkAction;
  total: number;
  failures: BulkOutcome[];
}

/** What the answer form sends for the group: the text, and one answer per prompt where it has them. */
export interface GroupAnswer {
  answer: string;
  answers?: readonly PromptAnswer[];
  validForSeconds?: number;
  draftText: string;
}

export interface LookalikeGroupState {
  group: OpenGroup;
  /** Every ask, as the freshest list has it. */
  members: Question[];
  pending: Question[];
  /** Answers every pending ask with one text (see useBulkRun). */
  answer: (vars: GroupAnswer) => void;
  /** How many are being sent, while they are. */
  sending: number | null;
  progress: number;
  outcome: Outcome | null;
  /** Opens the one confirmation for Not applicable or Cancel on every pending ask. */
  confirm: (action: 'not-applicable' | 'cancel') => void;
  dialog: { action: BulkAction | null; chosen: Question[]; used: boolean };
  closeDialog: () => void;
}

/**
 * The look-alike group open around `question` (`?asks=all`), or null: its asks as they stand
 * now, and Answer for all of them through the bulk actions' machinery (one request per ask, the
 * failed ones stay selected).
 */
export function useLookalikeGroup(question: Question, group: OpenGroup): LookalikeGroupState {
  const known = useKnownQuestions();
  const members = useMemo(() => {
    const byId = new Map(known.map((q) => [q.id, q]));
    // An ask answered since the group was listed has left the pending view: its record in the
    // unfiltered list says what became of it.
    return group.members.map((member) => {
      const listed = byId.get(member.id);
      return listed && listed.status !== 'pending' ? listed : member;
    });
  }, [group, known]);
  const pending = members.filter((m) => m.status === 'pending');
  const { run, progress } = useBulkRun();
  const [sending, setSending] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const draft = useDraft(question.id);
  const flow = useDrawerFlow();
  const recentAnswers = useRecentAnswers();
  const [dialog, setDialog] = useState<LookalikeGroupState['dialog']>({
    action: null,
    chosen: [],
    used: false,
  });

  const answer: LookalikeGroupState['answer'] = ({
    answer,
    answers,
    validForSeconds,
    draftText,
  }) => {
    if (sending !== null || pending.length === 0) return;
    const batch = pending;
    setSending(batch.length);
    setOutcome(null);
    void run('answer', batch, {
      answer,
      ...(answers ? { answers } : {}),
      ...(validForSeconds ? { validForSeconds } : {}),
    }).then((failures) => {
      setSending(null);
      setOutcome({ action: 'answer', total: batch.length, failures });
      group.keepSelected(
        members.map((m) => m.id),
        failures.map((f) => f.question.id),
      );
      const summary = `${bulkSummary('answer', batch.length - failures.length, batch.length)}`;
      notifications.show({
        color: failures.length === 0 ? 'green' : 'red',
        title: summary,
        message:
          failures.length === 0
            ? 'Every agent will resume with the answer.'
            : `${questionsWord(failures.length)} failed: see the question.`,
      });
      if (!answers && failures.length < batch.length) {
        recentAnswers.remember(answer, quickAnswers(question.answerFormat));
      }
      if (failures.length > 0) return;
      // Sent everywhere: the box's draft has done its job (unless typed on meanwhile).
      if (draft.draft?.text === draftText) draft.discard();
      flow.done(question.id);
    });
  };
  return {
    group,
    members,
    pending,
    answer,
    sending,
    progress,
    outcome,
    dialog,
    // The asks as they are when the reviewer asks: a refresh must not change what is confirmed.
    confirm: (action) => setDialog({ action, chosen: pending, used: true }),
    closeDialog: () => setDialog((current) => ({ ...current, action: null })),
  };
}

function Ask({ member, label }: { member: Question; label: string }) {
  const location = useLocation();
  const search = withoutGroup(new URLSearchParams(location.search));
  return (
    <li className={classes.ask} data-member-id={member.id}>
      <Anchor
        component={Link}
        to={{ pathname: questionPath(member.id), search }}
        state={location.state}
        replace
        size="sm"
      >
        {label}
      </Anchor>
      <StatusBadge status={member.status} notApplicable={isNotApplicable(member)} />
      <Text span size="sm" c="dimmed">
        {member.userId ? `${member.userId} · ` : ''}
        {member.createdAt !== null && (
          <TimeAgo at={member.createdAt} prefix="asked" sourceKey={member.source.id} />
        )}
      </Text>
      {member.status === 'pending' && member.expiresAt !== null && (
        <Countdown expiresAt={member.expiresAt} sourceId={member.source.id} size="xs" />
      )}
    </li>
  );
}

/** Where a group's asks came from (the look-alike rule's "same scope or asker", lookalikes.ts). */
const WHERE_ASKED: Record<Question['source']['kind'], string> = {
  reflexio: 'in the same scope',
  vertesia: 'by the same agent',
  bilby: 'in the same conversation',
};

/** "3 asks": the group's members, how sending goes, and what came of it. */
export function LookalikeAsks({ state }: { state: LookalikeGroupState }) {
  const { members, pending, sending, progress, outcome } = state;
  const headingId = useId();
  const count = members.length;
  return (
    <section aria-labelledby={headingId} data-testid="lookalike-group">
      <Stack gap="xs">
        <Title order={3} size="h5" id={headingId}>
          {count} asks
        </Title>
        <Text size="sm" c="dimmed">
          The same question, asked {count} times{' '}
          {askersSpanned(members) ?? WHERE_ASKED[members[0]?.source.kind ?? 'reflexio']}.{' '}
          {pending.length === 0
            ? 'None of them is pending any more.'
            : pending.length === 1
              ? 'Answer sends the answer to the one still pending.'
              : `Answer sends the answer to all ${pending.length} still pending.`}
        </Text>
        <ul className={classes.asks} aria-label={`${count} asks`}>
          {members.map((member, index) => (
            <Ask key={member.id} member={member} label={`Ask ${index + 1} of ${count}`} />
          ))}
        </ul>
        {sending !== null && (
          <Text size="sm" role="status">
            Sending: {progress} of {sending} done…
          </Text>
        )}
        {outcome && (
          <Alert
            role="status"
            color={outcome.failures.length === 0 ? 'green' : 'red'}
            title={`${bulkSummary(outcome.action, outcome.total - outcome.failures.length, outcome.total)}.`}
          >
            <Stack gap="xs">
              <Text size="sm">
                {outcome.failures.length === 0
                  ? 'Every agent will resume with the answer.'
                  : `${questionsWord(outcome.failures.length)} failed and stay selected in the list; nothing was sent again.`}
              </Text>
              <BulkFailureList failures={outcome.failures} />
            </Stack>
          </Alert>
        )}
      </Stack>
    </section>
  );
}

const triggers = {
  'not-applicable': { label: 'Not applicable', key: 'n' },
  cancel: { label: 'Cancel questions', key: 'c' },
} as const;

/** Not applicable and Cancel for every pending ask, after one confirmation naming how many. */
export function LookalikeActions({ state, busy }: { state: LookalikeGroupState; busy: boolean }) {
  const allowed = bulkActions(state.pending, useQuestionsNow(10_000));
  const offered = (['not-applicable', 'cancel'] as const).filter((a) => allowed.includes(a));
  const idle = !busy && state.sending === null;
  useKeys(
    Object.fromEntries(
      offered.map((each) => [
        triggers[each].key,
        (event: KeyboardEvent) => {
          if (!idle) return;
          event.preventDefault();
          state.confirm(each);
        },
      ]),
    ),
  );
  return offered.map((each) => (
    <Button
      key={each}
      variant="default"
      onClick={() => state.confirm(each)}
      aria-keyshortcuts={triggers[each].key}
      disabled={!idle}
    >
      {triggers[each].label}
    </Button>
  ));
}

/**
 * The confirmation and per-ask results of the group's Not applicable or Cancel, mounted beside
 * the form rather than in it: the results stay on screen when the open ask closes.
 */
export function LookalikeDialog({ state }: { state: LookalikeGroupState }) {
  const { dialog } = state;
  if (!dialog.used) return null;
  return (
    <BulkDialog
      action={dialog.action}
      questions={dialog.chosen}
      onClose={state.closeDialog}
      onFinished={(failedIds) =>
        state.group.keepSelected(
          state.members.map((m) => m.id),
          failedIds,
        )
      }
    />
  );
}
