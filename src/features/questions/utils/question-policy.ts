import { jsonText } from '@/lib/bounded-json';
import type { Question, QuestionOrigin, QuestionStatus } from '../api/schemas';
import { bilbyCapabilities } from '../sources/bilby/capabilities';
import { reflexioCapabilities } from '../sources/reflexio/capabilities';
import { refusal, type SourceCapabilities } from '../sources/types';
import { vertesiaCapabilities } from '../sources/vertesia/capabilities';
import type { StatusFilter } from './filters';
import { answerText, isAskHuman, isNotApplicable } from './status';
import { truncateText } from './text';

/**
 * What a status means to the portal, in one place: adding a status is an entry here (TypeScript
 * asks for one for every status in `questionStatuses`), its tests, and the mock. Components only
 * render what this module returns.
 */

/** The drawer's form: a new answer, an edit of the answer given, or another tool's JSON result. */
export type AnswerMode = 'answer' | 'edit' | 'json';

/** A Mantine colour name; the badge uses its `-light` and `-light-color` variables. */
export type StatusColor = 'blue' | 'green' | 'orange' | 'grape' | 'gray';

export interface ListText {
  title: string;
  body: string;
}

export interface StatusMeta {
  label: string;
  color: StatusColor;
  /** The list of this status when it has no questions. */
  emptyList: ListText;
  /** Why a question in this status takes no action, in the reviewer's words; null if it does. */
  closed: string | null;
  /** The heading over that explanation: a plain sentence. */
  closedTitle: string;
  /**
   * The form the drawer shows for an `ask_human` question and for another tool's call. On a
   * closed status it is shown only to keep the reviewer's draft visible (read-only, copyable).
   */
  form: { askHuman: AnswerMode | null; otherTool: AnswerMode | null };
  /** "Cancel question" is offered (on an open status only). */
  cancel: boolean;
  /** "Not applicable" is offered to `ask_human` questions (on an open status only). */
  notApplicable: boolean;
  /** What the drawer says when someone else moved the question to this status while it was open. */
  changedElsewhere: (question: Question) => string;
  /** The heading over the answer a question in this status carries. */
  answerHeading: string;
}

const NEW_ANSWER = { askHuman: 'answer', otherTool: 'json' } as const;

export const statusMeta: Record<QuestionStatus, StatusMeta> = {
  pending: {
    label: 'Pending',
    closedTitle: 'This question is open',
    color: 'blue',
    emptyList: {
      title: 'No questions are waiting',
      body: 'No agent is blocked on a person right now. New questions appear here on their own.',
    },
    closed: null,
    form: NEW_ANSWER,
    cancel: true,
    notApplicable: true,
    answerHeading: 'Current answer',
    changedElsewhere: () => 'This question changed on the server.',
  },
  resolved: {
    label: 'Resolved',
    closedTitle: 'This question has been answered',
    color: 'green',
    emptyList: { title: 'No answered questions', body: 'Answered questions show up here.' },
    closed: null,
    // Another tool's result is final once sent (see QuestionPolicy.finalResult).
    form: { askHuman: 'edit', otherTool: null },
    cancel: false,
    notApplicable: true,
    answerHeading: 'Current answer',
    changedElsewhere: (question) => {
      if (isNotApplicable(question)) return 'Someone else marked this question not applicable.';
      const answer = answerText(question);
      return answer !== null
        ? `Answered by someone else: “${truncateText(answer, 500)}”`
        : 'Resolved by someone else.';
    },
  },
  expired: {
    label: 'Expired',
    closedTitle: 'Too late to answer',
    color: 'orange',
    emptyList: {
      title: 'No expired questions',
      body: 'Questions nobody answered in time show up here.',
    },
    closed: 'This question expired without an answer; the agent stopped waiting for it.',
    form: NEW_ANSWER,
    cancel: false,
    notApplicable: false,
    answerHeading: 'Current answer',
    changedElsewhere: () => 'This question expired before it was answered.',
  },
  superseded: {
    label: 'Superseded',
    closedTitle: 'Replaced by a newer answer',
    color: 'grape',
    emptyList: {
      title: 'No superseded questions',
      body: 'Answers replaced by newer ones show up here.',
    },
    closed:
      'A newer answer to the same question replaced this one, so it can no longer be changed here.',
    form: NEW_ANSWER,
    cancel: false,
    notApplicable: false,
    answerHeading: 'Earlier answer',
    changedElsewhere: () => 'A newer answer to the same question replaced this one.',
  },
  cancelled: {
    label: 'Cancelled',
    closedTitle: 'Cancelled without an answer',
    color: 'gray',
    emptyList: {
      title: 'No cancelled questions',
      body: 'Questions cancelled without an answer show up here.',
    },
    closed: 'This question was cancelled; the agent gets no answer for it.',
    form: NEW_ANSWER,
    cancel: false,
    notApplicable: false,
    answerHeading: 'Current answer',
    changedElsewhere: () => 'Someone else cancelled this question.',
  },
};

const allStatuses = {
  label: 'All',
  emptyList: {
    title: 'No questions yet',
    body: 'When an agent asks a person something, it appears here.',
  },
};

/** The status filter's label and empty-list text: a status's own, or "All". */
export function filterMeta(filter: StatusFilter): { label: string; emptyList: ListText } {
  return filter === 'all' ? allStatuses : statusMeta[filter];
}

/** The server still says pending until its sweeper runs; the portal closes it at `expires_at`. */
export const OVERDUE_EXPLANATION =
  'This question has expired: its time ran out, so it no longer takes answers and the agent has stopped waiting.';
export const GONE_EXPLANATION = 'This question no longer exists on the server.';

/**
 * The time at the server that owns each question (each system has its own clock: a Vertesia ask
 * expires by Vertesia's); a plain number where they all share one (tests, one system).
 */
export type QuestionNow = number | ((question: Question) => number);

export function nowOf(question: Question, now: QuestionNow): number {
  return typeof now === 'number' ? now : now(question);
}

export function isOverdue(question: Question, now: number): boolean {
  return question.status === 'pending' && question.expiresAt !== null && question.expiresAt <= now;
}

/** What the reviewer should see: a pending question past `expires_at` is expired, sweep or not. */
export function displayStatus(question: Question, now: number): QuestionStatus {
  return isOverdue(question, now) ? 'expired' : question.status;
}

/**
 * What each system lets a reviewer do besides answering, with why not in the reviewer's words (the
 * drawer says it where the action would be): the adapters' own capabilities.
 */
const sourceActions: Record<QuestionOrigin['kind'], Omit<SourceCapabilities, 'answer'>> = {
  reflexio: reflexioCapabilities,
  vertesia: vertesiaCapabilities,
  bilby: bilbyCapabilities,
};

/** What the question's system lets a reviewer do besides answering (its adapter's capabilities). */
export function sourceActionsOf(question: Question) {
  return sourceActions[question.source.kind];
}

/**
 * What marking these questions not applicable tells their agents, in one sentence: each system
 * tells its agent something of its own (Reflexio an answer, Bilby a dismissal).
 */
export function notApplicableEffect(questions: readonly Question[]): string {
  const tells = new Set(questions.map((q) => sourceActionsOf(q).notApplicableTells));
  const [only] = tells;
  const who = questions.length === 1 ? 'The agent is' : 'Each agent is';
  return tells.size === 1 && only
    ? `${who} told ${only} and carries on without an answer.`
    : `${who} told no answer is coming and carries on without one.`;
}

/** Which form and which buttons the drawer shows. */
export interface Offer {
  mode: AnswerMode | null;
  /** Why the question takes no action any more; null while it does. */
  closedReason: string | null;
  canCancel: boolean;
  canMarkNotApplicable: boolean;
  /** Why an action the reviewer may expect is not offered (the source cannot do it). */
  missing?: string;
}

// One object per distinct offer, so an unchanged offer keeps its identity from render to render.
const offers = new Map<string, Offer>();

function internOffer(offer: Offer): Offer {
  const key = `${offer.mode}|${offer.canCancel}|${offer.canMarkNotApplicable}|${offer.closedReason}|${offer.missing}`;
  let known = offers.get(key);
  if (!known) {
    known = Object.freeze(offer);
    offers.set(key, known);
  }
  return known;
}

export interface QuestionSituation {
  /** The server no longer has it (404 on refresh). */
  gone: boolean;
  /** The reviewer has a saved draft for it. */
  hasDraft: boolean;
  /**
   * Why it is shown without actions although it may be open (for example, one of several records
   * sharing an id, shown from the list only); null when it is the server's own record.
   */
  readOnly?: string | null;
}

export interface QuestionPolicy {
  /** The status the reviewer sees (see displayStatus). */
  status: QuestionStatus;
  label: string;
  color: StatusColor;
  /** Why no action can be taken, with a title for the note; null while actions are open. */
  closed: { title: string; explanation: string } | null;
  offer: Offer;
  /** Another tool's call, resolved: its result cannot be changed. */
  finalResult: boolean;
}

/** What the drawer may offer for `question` at `now`, and why not when it offers nothing. */
export function questionPolicy(
  question: Question,
  now: number,
  { gone, hasDraft, readOnly = null }: QuestionSituation = { gone: false, hasDraft: false },
): QuestionPolicy {
  const status = displayStatus(question, now);
  const meta = statusMeta[status];
  const askHuman = isAskHuman(question);
  const baseExplanation =
    readOnly ??
    (gone ? GONE_EXPLANATION : isOverdue(question, now) ? OVERDUE_EXPLANATION : meta.closed);
  const can = sourceActions[question.source.kind];
  const editRefused = refusal(can.edit);
  // A source that cannot change an answer closes the question once it is answered.
  const editBlocked =
    (askHuman ? meta.form.askHuman : meta.form.otherTool) === 'edit' && editRefused !== null;
  const explanation = baseExplanation ?? (editBlocked && meta.closed === null ? editRefused : null);
  const open = explanation === null;
  // Where the answer cannot be changed, a draft the reviewer still holds shows in the new-answer
  // form, read-only, so what they typed stays visible and copyable.
  const form = editBlocked
    ? hasDraft
      ? 'answer'
      : null
    : askHuman
      ? meta.form.askHuman
      : meta.form.otherTool;
  return {
    status,
    label: meta.label,
    color: meta.color,
    closed:
      explanation === null
        ? null
        : {
            title:
              readOnly !== null
                ? 'Shown from the list only, so it cannot be changed here'
                : gone
                  ? 'Not found'
                  : meta.closedTitle,
            explanation,
          },
    offer: internOffer({
      // A closed question shows the form only to keep the reviewer's draft visible and copyable.
      mode: open || hasDraft ? form : null,
      closedReason: explanation,
      canCancel: open && meta.cancel && can.cancel.allowed,
      canMarkNotApplicable: open && askHuman && meta.notApplicable && can.notApplicable.allowed,
      ...(open && can.note !== null ? { missing: can.note } : {}),
    }),
    finalResult: !askHuman && meta.closed === null && meta.form.otherTool === null,
  };
}

const resultKeys = new WeakMap<Record<string, unknown>, string>();

function resultKey(result: Record<string, unknown> | null): string {
  if (result === null) return '';
  let key = resultKeys.get(result);
  if (key === undefined) {
    // Bounded: a result can be nested thousands of levels deep (JSON.stringify would throw) or
    // megabytes long. A change past the first 20,000 characters still shows: every answer and
    // edit sets resolved_at anew, which is part of the version.
    key = jsonText(result, { maxDepth: 20, maxChars: 20_000 }).text;
    resultKeys.set(result, key);
  }
  return key;
}

/**
 * What a question is on the server, as far as the reviewer is concerned: two records with the same
 * version show the same outcome. The result is serialized once per record.
 */
export function questionVersion(question: Question): string {
  return `${question.status}|${question.resolvedAt}|${question.supersededBy ?? ''}|${question.notApplicable ? 'n/a' : ''}|${resultKey(question.result)}`;
}

/** What changed between the question the reviewer saw (`before`) and `after`; null if nothing did. */
export function describeChange(before: Question, after: Question): string | null {
  if (questionVersion(before) === questionVersion(after)) return null;
  return statusMeta[after.status].changedElsewhere(after);
}
