import type { Question } from '../api/schemas';
import { nowOf, type QuestionNow, questionPolicy } from './question-policy';

export type BulkAction = 'not-applicable' | 'cancel' | 'answer';

/**
 * The bulk actions every one of `questions` allows at `now`, as the drawer would offer them one by
 * one (questionPolicy): one question that cannot be cancelled takes Cancel off the bar.
 */
export function bulkActions(questions: readonly Question[], now: QuestionNow): BulkAction[] {
  if (questions.length === 0) return [];
  const offers = questions.map((q) => questionPolicy(q, nowOf(q, now)).offer);
  const all = (test: (offer: (typeof offers)[number]) => boolean) => offers.every(test);
  const actions: BulkAction[] = [];
  if (all((o) => o.closedReason === null && o.mode === 'answer')) actions.push('answer');
  if (all((o) => o.canMarkNotApplicable)) actions.push('not-applicable');
  if (all((o) => o.canCancel)) actions.push('cancel');
  return actions;
}

export interface BulkOutcome {
  question: Question;
  error: unknown;
}

/** "Answered 3 of 3", "Marked 4 of 5 not applicable". */
export function bulkSummary(action: BulkAction, done: number, total: number): string {
  const count = `${done} of ${total}`;
  if (action === 'answer') return `Answered ${count}`;
  if (action === 'cancel') return `Cancelled ${count}`;
  return `Marked ${count} not applicable`;
}
