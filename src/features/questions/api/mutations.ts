import { type Mutation, useMutation, useQueryClient } from '@tanstack/react-query';
import { isApiError } from '@/lib/api-client';
import { serverNow, useClock } from '@/lib/clock';
import { readDraft, removeDraft } from '../utils/draft-store';
import { findCachedQuestion, forgetQuestion, writeQuestion } from './cache';
import { ACTION_KEY, questionKeys } from './queries';
import { NOT_APPLICABLE_ANSWER, type PromptAnswer, type Question } from './schemas';
import { draftSlotOf, type QuestionSource, type SentTogether, useQuestionSource } from './source';

interface ActionVars extends SentTogether {
  id: string;
  /**
   * The text in the answer box when it was sent. On success its draft is removed, unless the
   * reviewer typed on meanwhile (then the newer draft stays).
   */
  draftText?: string;
  /**
   * Waited for before anything is sent (a final action's few seconds of undo, utils/outbox.ts);
   * a rejection sends nothing and undoes what is shown, as a refusal would.
   */
  hold?: () => Promise<void>;
}

interface ActionSpec<TVars extends ActionVars> {
  kind: string;
  send: (source: QuestionSource, vars: TVars) => Promise<Question>;
  /** What the question will look like if the server agrees; shown at once, rolled back on failure. */
  optimistic: (question: Question, vars: TVars, now: number) => Question;
}

/** Whether a mutation in the cache is an action on question `id`. */
export function isActionOn(id: string) {
  return (mutation: Mutation<unknown, Error, unknown, unknown>) =>
    mutation.options.mutationKey?.[1] === ACTION_KEY[1] &&
    (mutation.state.variables as { id?: string } | undefined)?.id === id;
}

function useQuestionAction<TVars extends ActionVars>(spec: ActionSpec<TVars>) {
  const source = useQuestionSource();
  const queryClient = useQueryClient();
  const clock = useClock();
  return useMutation({
    mutationKey: [...ACTION_KEY, spec.kind],
    mutationFn: async (vars: TVars) => {
      await vars.hold?.();
      return spec.send(source, vars);
    },
    onMutate: async (vars) => {
      // Reads already under way would land the old state over the optimistic one; reads started
      // from now on wait for this action to settle (see questionQueries).
      await queryClient.cancelQueries({ queryKey: questionKeys.all });
      const previous = findCachedQuestion(queryClient, vars.id);
      if (previous)
        writeQuestion(
          queryClient,
          spec.optimistic(previous, vars, serverNow(clock, previous.source.id)),
        );
      return { previous };
    },
    onError: (error, vars, context) => {
      // Undo this question only: other actions may have succeeded since.
      if (context?.previous) writeQuestion(queryClient, context.previous);
      if (isApiError(error) && error.kind === 'not-found') forgetQuestion(queryClient, vars.id);
    },
    onSuccess: (question, vars) => {
      writeQuestion(queryClient, question);
      // The server has the answer: its draft has done its job. Here rather than in a component
      // callback, so it happens even if the form that sent it is gone by now.
      const { scope, id } = draftSlotOf(source, question.id);
      if (vars.draftText !== undefined && readDraft(scope, id)?.text === vars.draftText) {
        removeDraft(scope, id);
      }
    },
    onSettled: (_data, error, vars) => {
      // The response already holds the new record; refetch in the background for what it changed
      // elsewhere (superseded rows, counts) and, after a failure, for what the question is now.
      void queryClient.invalidateQueries({ queryKey: questionKeys.lists() });
      if (error) void queryClient.invalidateQueries({ queryKey: questionKeys.detail(vars.id) });
      // The trail has a new entry (History, "by alice" on the row): read again where shown.
      void queryClient.invalidateQueries({ queryKey: ['activity'] });
    },
  });
}

function resolvedNow(
  question: Question,
  result: Record<string, unknown>,
  now: number,
  notApplicable = false,
): Question {
  return { ...question, status: 'resolved', result, notApplicable, resolvedAt: now };
}

export interface ResolveVars extends ActionVars {
  result: Record<string, unknown>;
  validForSeconds?: number;
  /** One per prompt of a record that holds several (see ResolveInput). */
  answers?: readonly PromptAnswer[];
}

export function useResolveQuestion() {
  return useQuestionAction<ResolveVars>({
    kind: 'resolve',
    send: (source, { id, result, validForSeconds, answers, together }) =>
      source.resolve(id, {
        result,
        validForSeconds,
        ...(answers ? { answers } : {}),
        ...(together ? { together } : {}),
      }),
    optimistic: (question, { result }, now) => resolvedNow(question, result, now),
  });
}

export interface AnswerVars extends ActionVars {
  answer: string;
  validForSeconds?: number;
}

export function useUpdateAnswer() {
  return useQuestionAction<AnswerVars>({
    kind: 'update-answer',
    send: (source, { id, answer, validForSeconds }) =>
      source.updateAnswer(id, { answer, validForSeconds }),
    optimistic: (question, { answer }, now) =>
      resolvedNow(question, { answer: answer.trim() }, now),
  });
}

export interface NotApplicableVars extends ActionVars {
  validForSeconds?: number;
}

export function useMarkNotApplicable() {
  return useQuestionAction<NotApplicableVars>({
    kind: 'not-applicable',
    send: (source, { id, validForSeconds, together }) =>
      source.markNotApplicable(id, { validForSeconds, ...(together ? { together } : {}) }),
    optimistic: (question, _vars, now) =>
      resolvedNow(question, { answer: NOT_APPLICABLE_ANSWER }, now, true),
  });
}

export function useCancelQuestion() {
  return useQuestionAction<ActionVars>({
    kind: 'cancel',
    send: (source, { id }) => source.cancel(id),
    optimistic: (question) => ({ ...question, status: 'cancelled' }),
  });
}
