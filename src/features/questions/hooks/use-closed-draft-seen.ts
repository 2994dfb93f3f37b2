import { useEffect } from 'react';
import { draftSlotOf, useQuestionSource } from '../api/source';
import { readDraft, writeDraft } from '../utils/draft-store';

/** Marks the draft as seen on its closed question (see Draft.seenClosed); false if there is none. */
export function markDraftSeenClosed(scope: string, id: string): boolean {
  const draft = readDraft(scope, id);
  if (!draft || draft.seenClosed) return false;
  return writeDraft(scope, id, draft.text, draft.savedAt, true);
}

/**
 * The question is on screen in its closed state (`closed`): a draft left on it stops being marked
 * in the list. The draft itself stays, shown read-only in the question for the reviewer to copy.
 * (The drawer's own module: none of this is in the list's first download.)
 */
export function useClosedDraftSeen(questionId: string, closed: boolean, hasDraft: boolean) {
  const source = useQuestionSource();
  useEffect(() => {
    if (!closed || !hasDraft) return;
    const { scope, id } = draftSlotOf(source, questionId);
    markDraftSeenClosed(scope, id);
  }, [source, questionId, closed, hasDraft]);
}
