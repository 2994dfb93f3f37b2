import { useCallback } from 'react';
import { serverNow, useClock, useHasPassed, useNow } from '@/lib/clock';
import type { Question } from '../api/schemas';

/**
 * The time at the question's own server (its system's clock, see ServerTime) for the status
 * policy (`displayStatus`, `questionPolicy`), re-rendering only when the question's expiry passes:
 * the one moment their answer changes with time. A pending question past `expires_at` reads
 * expired at once, before the server's sweeper runs.
 */
export function useStatusNow(question: Question): number {
  const clock = useClock();
  useHasPassed(question.status === 'pending' ? question.expiresAt : null, question.source.id);
  return serverNow(clock, question.source.id);
}

/**
 * Each question's own server time (a QuestionNow) for rules over several questions (the tab's
 * badge, bulk actions), re-rendering at most once per `granularityMs`.
 */
export function useQuestionsNow(granularityMs = 1): (question: Question) => number {
  const clock = useClock();
  const now = useNow(granularityMs);
  return useCallback(
    (question: Question) => now + clock.offsetMs(question.source.id),
    [clock, now],
  );
}
