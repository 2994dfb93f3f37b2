import { queryOptions } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { QuestionStatus } from './schemas';
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

export function createQuestionQueries(source: QuestionSource) {
  return {
    list: (status: QuestionStatus | 'all', limit = LIST_LIMIT) =>
      queryOptions({
        queryKey: questionKeys.list({ status, limit }),
        queryFn: ({ signal }) =>
          source.list({ status: status === 'all' ? undefined : status, limit }, signal),
      }),
    detail: (id: string) =>
      queryOptions({
        queryKey: questionKeys.detail(id),
        queryFn: ({ signal }) => source.get(id, signal),
      }),
  };
}

export type QuestionQueries = ReturnType<typeof createQuestionQueries>;

export function useQuestionQueries(): QuestionQueries {
  const source = useQuestionSource();
  return useMemo(() => createQuestionQueries(source), [source]);
}
