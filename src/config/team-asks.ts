import type { AuditSubject } from './shell-context';

// The questions feature asks the team's part before acting on a question someone else holds.
// Apart from shell-context.ts: only lazily loaded parts use these, so they stay out of the first
// download.

/**
 * Dispatched on `document` before an answer is sent, cancelable; `detail`: the question's `id`,
 * its `source` id and `go()`, which sends it. Whoever cancels it (the team's part, to ask
 * whether to answer a question someone else holds) calls `go` if the reviewer still wants to.
 */
export const ANSWER_EVENT = 'questions-inbox:answer';
export interface AnswerEventDetail {
  id: string;
  source: string;
  go: () => void;
}

/**
 * Dispatched on `document` by a bulk action before it asks the reviewer: the team's part (when
 * loaded) fills `holders` with the questions someone else has claimed, and who (a short name),
 * so that the confirmation can say so, as the drawer asks before answering one.
 */
export const HOLDERS_EVENT = 'questions-inbox:holders';
export interface HoldersEventDetail {
  questions: readonly AuditSubject[];
  holders: Map<AuditSubject, string>;
}
