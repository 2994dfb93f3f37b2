import { useHasPassed } from '@/lib/clock';
import type { Question } from '../api/schemas';

/**
 * A pending question whose `expires_at` has passed: the server still says pending until its
 * sweeper runs, but the portal shows it expired and closes its actions at once.
 */
export function useOverdue(question: Question): boolean {
  return useHasPassed(question.status === 'pending' ? question.expiresAt : null);
}
