import { useCallback, useMemo, useState, useSyncExternalStore } from 'react';
import { useClock } from '@/lib/clock';
import { useQuestionSource } from '../api/source';
import {
  type Draft,
  markedDraftIdsSnapshot,
  readDraft,
  removeDraft,
  subscribeToDrafts,
  writeDraft,
} from '../utils/draft-store';

/**
 * Ids of questions with a saved draft, for the list's marker: not those the reviewer has seen
 * closed with their draft on them (see useClosedDraftSeen).
 */
export function useDraftIds(): Set<string> {
  const { key } = useQuestionSource();
  // The snapshot must be stable between changes, so it is a sorted string, split once.
  const snapshot = useSyncExternalStore(
    subscribeToDrafts,
    () => markedDraftIdsSnapshot(key),
    () => '',
  );
  return useMemo(() => new Set(snapshot ? snapshot.split('\n') : []), [snapshot]);
}

export interface DraftState {
  draft: Draft | null;
  /** False when the browser refused to save the last change (quota or private mode). */
  saved: boolean;
  /** Returns false when the browser refused to store it. */
  save(text: string): boolean;
  discard(): void;
}

/** The saved draft of one question, live: another tab, or a send that succeeded, changes it. */
export function useDraft(questionId: string): DraftState {
  const { key } = useQuestionSource();
  const raw = useSyncExternalStore(
    subscribeToDrafts,
    () => {
      const draft = readDraft(key, questionId);
      return draft ? JSON.stringify(draft) : null;
    },
    () => null,
  );
  const draft = useMemo(() => (raw ? (JSON.parse(raw) as Draft) : null), [raw]);
  const [saved, setSaved] = useState(true);
  const clock = useClock();

  const save = useCallback(
    (text: string) => {
      const ok = writeDraft(key, questionId, text, clock.now());
      setSaved(ok);
      return ok;
    },
    [key, questionId, clock],
  );
  const discard = useCallback(() => {
    removeDraft(key, questionId);
    setSaved(true);
  }, [key, questionId]);

  return { draft, saved, save, discard };
}
