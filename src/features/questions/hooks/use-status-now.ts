import { useClock, useHasPassed } from '@/lib/clock';
import type { Question } from '../api/schemas';

/**
 * The shared clock's now, for the status policy (`displayStatus`, `questionPolicy`), re-rendering
 * only when the question's expiry passes: the one moment their answer changes with time. A pending
 * question past `expires_at` reads expired at once, before the server's sweeper runs.
 */
export function useStatusNow(question: Question): number {
  const clock = useClock();
  useHasPassed(question.status === 'pending' ? question.expiresAt : null);
  return clock.now();
}
