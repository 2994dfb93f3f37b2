import { useCallback, useMemo, useState, useSyncExternalStore } from 'react';
import { useQuestionSource } from '../api/source';
import {
  type Draft,
  draftIds,
  readDraft,
  removeDraft,
  subscribeToDrafts,
  writeDraft,
} from '../utils/draft-store';

/** Ids of questions with a saved draft, for the list's marker. */
export function useDraftIds(): Set<string> {
  const { key } = useQuestionSource();
  // The snapshot must be stable between changes, so it is a sorted string, split once.
  const snapshot = useSyncExternalStore(
    subscribeToDrafts,
    () => [...draftIds(key)].sort().join('\n'),
    () => '',
  );
  return useMemo(() => new Set(snapshot ? snapshot.split('\n') : []), [snapshot]);
}

export interface DraftState {
  draft: Draft | null;
  /** False when the browser refused to save the last change (quota or private mode). */
  saved: boolean;
  save(text: string): void;
  discard(): void;
}

export function useDraft(questionId: string): DraftState {
  const { key } = useQuestionSource();
  const [draft, setDraft] = useState<Draft | null>(() => readDraft(key, questionId));
  const [saved, setSaved] = useState(true);
  const [loadedFor, setLoadedFor] = useState(questionId);
  if (loadedFor !== questionId) {
    setLoadedFor(questionId);
    setDraft(readDraft(key, questionId));
    setSaved(true);
  }

  const save = useCallback(
    (text: string) => {
      const now = Date.now();
      setDraft({ text, savedAt: now });
      setSaved(writeDraft(key, questionId, text, now));
    },
    [key, questionId],
  );
  const discard = useCallback(() => {
    removeDraft(key, questionId);
    setDraft(null);
    setSaved(true);
  }, [key, questionId]);

  return { draft, saved, save, discard };
}
