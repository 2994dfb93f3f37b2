import { useSyncExternalStore } from 'react';
import { readRecentAnswers, subscribeToRecentAnswers } from '../utils/recent-answers';

const none: readonly string[] = [];

/** The short answers this browser sent lately, newest first (see utils/recent-answers). */
export function useRecentAnswers(): readonly string[] {
  return useSyncExternalStore(subscribeToRecentAnswers, readRecentAnswers, () => none);
}
