import type { Question } from '../api/schemas';
import { displayStatus, nowOf, type QuestionNow } from './question-policy';

/** A question with less than this left is about to expire: one alert for it, and the tab turns urgent. */
export const URGENT_MS = 5 * 60_000;

/** How long `q` has left by its own server's clock. */
export const expiresIn = (q: Question, now: QuestionNow) =>
  q.expiresAt === null ? Number.POSITIVE_INFINITY : q.expiresAt - nowOf(q, now);

/** What the tab shows of the pending questions: its title and the favicon's badge. */
export function pendingBadge(pending: Question[] | undefined, now: QuestionNow) {
  const live = pending?.filter((q) => displayStatus(q, nowOf(q, now)) === 'pending') ?? [];
  const urgent = live.some((q) => expiresIn(q, now) < URGENT_MS);
  const count = live.length;
  const title =
    count === 0
      ? 'Questions'
      : urgent
        ? `(${count}) Expiring soon · Questions`
        : `(${count}) Questions`;
  return { count, urgent, title };
}
