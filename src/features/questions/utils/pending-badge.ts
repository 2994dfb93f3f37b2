import type { Question } from '../api/schemas';
import { displayStatus, nowOf, type QuestionNow } from './question-policy';

/** A question with less than this left is about to expire: one alert for it, and the tab turns urgent. */
export const URGENT_MS = 5 * 60_000;

/** How long `q` has left by its own server's clock. */
export const expiresIn = (q: Question, now: QuestionNow) =>
  q.expiresAt === null ? Number.POSITIVE_INFINITY : q.expiresAt - nowOf(q, now);

/**
 * What the tab shows of the pending questions: its title and the favicon's badge, and how long
 * until that can change with time alone (a question turning urgent or expiring; Infinity: never),
 * so that the page looks again then instead of counting every question on every tick.
 */
export function pendingBadge(pending: Question[] | undefined, now: QuestionNow) {
  let count = 0;
  let urgent = false;
  let changesIn = Number.POSITIVE_INFINITY;
  for (const q of pending ?? []) {
    if (displayStatus(q, nowOf(q, now)) !== 'pending') continue;
    count += 1;
    const left = expiresIn(q, now);
    if (left < URGENT_MS) urgent = true;
    else changesIn = Math.min(changesIn, left - URGENT_MS);
    changesIn = Math.min(changesIn, left);
  }
  const title =
    count === 0
      ? 'Questions'
      : urgent
        ? `(${count}) Expiring soon · Questions`
        : `(${count}) Questions`;
  return { count, urgent, title, changesIn };
}
