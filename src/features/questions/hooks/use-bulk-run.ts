import { useState } from 'react';
import { useCancelQuestion, useMarkNotApplicable, useResolveQuestion } from '../api/mutations';
import type { PromptAnswer, Question } from '../api/schemas';
import type { BulkAction, BulkOutcome } from '../utils/bulk';

export interface BulkRunOptions {
  /** The answer, for `answer`. */
  answer?: string;
  /** One answer per prompt, for questions that hold several (all of the batch alike). */
  answers?: readonly PromptAnswer[];
  validForSeconds?: number;
  /** The answer box's text, sent with the question whose draft it is (removed on success). */
  draft?: { id: string; text: string };
}

/**
 * One request per question, in turn, never again on its own: the bulk bar's actions and a
 * look-alike group's. Resolves with the failures (the question and why).
 */
export function useBulkRun() {
  const [progress, setProgress] = useState(0);
  const notApplicable = useMarkNotApplicable();
  const cancel = useCancelQuestion();
  const resolve = useResolveQuestion();
  const run = async (
    action: BulkAction,
    batch: readonly Question[],
    options: BulkRunOptions = {},
  ): Promise<BulkOutcome[]> => {
    setProgress(0);
    const failed: BulkOutcome[] = [];
    for (const question of batch) {
      const { id } = question;
      try {
        if (action === 'not-applicable') await notApplicable.mutateAsync({ id });
        else if (action === 'cancel') await cancel.mutateAsync({ id });
        else
          await resolve.mutateAsync({
            id,
            result: { answer: options.answer ?? '' },
            ...(options.answers ? { answers: options.answers } : {}),
            ...(options.validForSeconds === undefined
              ? {}
              : { validForSeconds: options.validForSeconds }),
            ...(options.draft?.id === id ? { draftText: options.draft.text } : {}),
          });
      } catch (error) {
        failed.push({ question, error });
      }
      setProgress((done) => done + 1);
    }
    return failed;
  };
  return { run, progress };
}
