import {
  type QueryClient,
  queryOptions,
  replaceEqualDeep,
  useQueryClient,
} from '@tanstack/react-query';
import { useMemo } from 'react';
import { markOnce } from '@/lib/perf-marks';
import type { Question, QuestionList, QuestionStatus } from './schemas';
import { type QuestionSource, useQuestionSource } from './source';

/** The API's maximum page; it has no offset, so the portal reads this many and filters locally. */
export const LIST_LIMIT = 500;

export interface ListKey {
  status: QuestionStatus | 'all';
  limit: number;
}

export const questionKeys = {
  all: ['questions'] as const,
  lists: () => [...questionKeys.all, 'list'] as const,
  list: (key: ListKey) => [...questionKeys.lists(), key] as const,
  details: () => [...questionKeys.all, 'detail'] as const,
  detail: (id: string) => [...questionKeys.details(), id] as const,
};

/** Mutations that act on questions (answer, edit, not applicable, cancel). */
export const ACTION_KEY = ['questions', 'action'] as const;

/**
 * Resolves once no action is in flight. A read that lands while an action is pending would paint
 * the old state over the optimistic one (a poll every 10 s meets a slow answer sooner or later).
 */
export function actionsSettled(queryClient: QueryClient, signal?: AbortSignal): Promise<void> {
  const busy = () => queryClient.isMutating({ mutationKey: ACTION_KEY }) > 0;
  if (!busy()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const unsubscribe = queryClient.getMutationCache().subscribe(() => {
      if (busy()) return;
      unsubscribe();
      resolve();
    });
    signal?.addEventListener(
      'abort',
      () => {
        unsubscribe();
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/**
 * The same question in several lists (pending, all, a status) is one object: a question unchanged
 * since another list loaded it is taken from there. Half the memory with two lists of 500, and
 * unchanged rows keep their identity, so they do not re-render.
 */
function shareQuestions(queryClient: QueryClient, list: QuestionList): QuestionList {
  const known = new Map<string, Question>();
  for (const [, data] of queryClient.getQueriesData<QuestionList>({
    queryKey: questionKeys.lists(),
  })) {
    for (const question of data?.questions ?? []) known.set(question.id, question);
  }
  if (known.size === 0) return list;
  const questions = list.questions.map((question) => {
    const same = known.get(question.id);
    return same ? replaceEqualDeep(same, question) : question;
  });
  return { ...list, questions };
}

export function createQuestionQueries(source: QuestionSource, queryClient: QueryClient) {
  return {
    list: (status: QuestionStatus | 'all', limit = LIST_LIMIT) =>
      queryOptions({
        queryKey: questionKeys.list({ status, limit }),
        queryFn: async ({ signal, queryKey }) => {
          await actionsSettled(queryClient, signal);
          // A list on screen already (read before, or the server's first screen) is refreshed
          // whole: its rows stay until every source has answered.
          const shown = queryClient.getQueryData<QuestionList>(queryKey);
          const list = await source.list(
            {
              status: status === 'all' ? undefined : status,
              limit,
              shown,
              // Each source's rows paint when it answers; the list is still fetching meanwhile.
              onPartial: shown
                ? undefined
                : (partial) => {
                    markOnce('qi:list-data');
                    queryClient.setQueryData(queryKey, shareQuestions(queryClient, partial));
                  },
            },
            signal,
          );
          markOnce('qi:list-data');
          return shareQuestions(queryClient, list);
        },
      }),
    detail: (id: string) =>
      queryOptions({
        queryKey: questionKeys.detail(id),
        queryFn: async ({ signal }) => {
          await actionsSettled(queryClient, signal);
          return source.get(id, signal);
        },
      }),
  };
}

export type QuestionQueries = ReturnType<typeof createQuestionQueries>;

export function useQuestionQueries(): QuestionQueries {
  const source = useQuestionSource();
  const queryClient = useQueryClient();
  return useMemo(() => createQuestionQueries(source, queryClient), [source, queryClient]);
}
