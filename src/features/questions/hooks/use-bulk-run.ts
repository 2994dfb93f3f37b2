import { useState } from 'react';
import { useCancelQuestion, useMarkNotApplicable, useResolveQuestion } from '../api/mutations';
import type { PromptAnswer, Question } from '../api/schemas';
import type { BulkAction, BulkOutcome } from '../utils/bulk';
import { compareAsked, lookalikeKey } from '../utils/lookalikes';
import { sendingUnits } from '../utils/sending-units';

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
 * Requests under way at once. A few, not all: a bulk action on 200 questions should not queue 200
 * requests behind the list's next refresh, nor look like a burst to the server.
 */
export const BULK_CONCURRENCY = 4;

/**
 * The units in two waves: of look-alikes in the batch (the same question asked again), the newest
 * waits for the others. Reflexio keeps the answer given last as the answer and marks the earlier
 * ones superseded by it; sent all at once, which one stayed was a matter of which request arrived
 * last, not the newest ask.
 */
export function newestLookalikesLast(units: Question[][]): [Question[][], Question[][]] {
  const sets = new Map<string, Question[][]>();
  for (const unit of units) {
    const key = unit.length === 1 ? lookalikeKey(unit[0] as Question) : null;
    if (key !== null) sets.set(key, [...(sets.get(key) ?? []), unit]);
  }
  const last = new Set<Question[]>();
  for (const set of sets.values()) {
    if (set.length < 2) continue;
    last.add(set.reduce((a, b) => (compareAsked(a[0] as Question, b[0] as Question) < 0 ? b : a)));
  }
  return [units.filter((unit) => !last.has(unit)), units.filter((unit) => last.has(unit))];
}

/**
 * One request per question (per set of questions, where their system takes several in one; see
 * `sendingUnits`), a few at a time, never again on their own: the bulk bar's actions and a
 * look-alike group's. Resolves with the failures (the question and why), in the batch's order.
 */
export function useBulkRun() {
  const [progress, setProgress] = useState(0);
  const notApplicable = useMarkNotApplicable();
  const cancel = useCancelQuestion();
  const resolve = useResolveQuestion();
  const send = (
    action: BulkAction,
    question: Question,
    together: readonly string[] | undefined,
    options: BulkRunOptions,
  ) => {
    const { id } = question;
    const joint = together ? { together } : {};
    if (action === 'not-applicable') return notApplicable.mutateAsync({ id, ...joint });
    if (action === 'cancel') return cancel.mutateAsync({ id });
    return resolve.mutateAsync({
      id,
      ...joint,
      result: { answer: options.answer ?? '' },
      ...(options.answers ? { answers: options.answers } : {}),
      ...(options.validForSeconds === undefined
        ? {}
        : { validForSeconds: options.validForSeconds }),
      ...(options.draft?.id === id ? { draftText: options.draft.text } : {}),
    });
  };
  const run = async (
    action: BulkAction,
    batch: readonly Question[],
    options: BulkRunOptions = {},
  ): Promise<BulkOutcome[]> => {
    setProgress(0);
    const errors = new Map<Question, unknown>();
    const sendUnit = async (unit: Question[]) => {
      const together = unit.length > 1 ? unit.map((q) => q.id) : undefined;
      await Promise.all(
        unit.map(async (question) => {
          try {
            await send(action, question, together, options);
          } catch (error) {
            errors.set(question, error);
          }
          setProgress((done) => done + 1);
        }),
      );
    };
    /** BULK_CONCURRENCY workers, each taking the next unit of the wave when its last is done. */
    const sendWave = async (wave: Question[][]) => {
      let next = 0;
      const worker = async () => {
        while (next < wave.length) await sendUnit(wave[next++] as Question[]);
      };
      await Promise.all(Array.from({ length: Math.min(BULK_CONCURRENCY, wave.length) }, worker));
    };
    for (const wave of newestLookalikesLast(sendingUnits(batch))) await sendWave(wave);
    return batch.flatMap((question) =>
      errors.has(question) ? [{ question, error: errors.get(question) }] : [],
    );
  };
  return { run, progress };
}
