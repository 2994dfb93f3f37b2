import type { Question } from '../api/schemas';
import { displayStatus } from './question-policy';

/** A question with less than this left is about to expire: one alert for it, and the tab turns urgent. */
export const URGENT_MS = 5 * 60_000;

const expiresIn = (q: Question, now: number) =>
  q.expiresAt === null ? Number.POSITIVE_INFINITY : q.expiresAt - now;

/** What the tab shows of the pending questions: its title and the favicon's badge. */
export function pendingBadge(pending: Question[] | undefined, now: number) {
  const live = pending?.filter((q) => displayStatus(q, now) === 'pending') ?? [];
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
