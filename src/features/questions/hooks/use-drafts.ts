import { useCallback, useMemo, useState, useSyncExternalStore } from 'react';
import { useClock } from '@/lib/clock';
import { draftScopesOf, draftSlotOf, useQuestionSource } from '../api/source';
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
  const source = useQuestionSource();
  // The snapshot must be stable between changes, so it is a string (equal strings are the same
  // snapshot), split once; each system's drafts in the inbox's own ids.
  const snapshot = useSyncExternalStore(
    subscribeToDrafts,
    () =>
      draftScopesOf(source)
        .map(({ scope, prefix }) => {
          const ids = markedDraftIdsSnapshot(scope);
          return ids && prefix ? ids.replace(/^/gm, prefix) : ids;
        })
        .filter(Boolean)
        .join('\n'),
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
  const source = useQuestionSource();
  const { scope, id } = draftSlotOf(source, questionId);
  const raw = useSyncExternalStore(
    subscribeToDrafts,
    () => {
      const draft = readDraft(scope, id);
      return draft ? JSON.stringify(draft) : null;
    },
    () => null,
  );
  const draft = useMemo(() => (raw ? (JSON.parse(raw) as Draft) : null), [raw]);
  const [saved, setSaved] = useState(true);
  const clock = useClock();

  const save = useCallback(
    (text: string) => {
      const ok = writeDraft(scope, id, text, clock.now());
      setSaved(ok);
      return ok;
    },
    [scope, id, clock],
  );
  const discard = useCallback(() => {
    removeDraft(scope, id);
    setSaved(true);
  }, [scope, id]);

  return { draft, saved, save, discard };
}
