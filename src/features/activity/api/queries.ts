import { queryOptions } from '@tanstack/react-query';
import { fetchActivity, fetchMe } from './requests';
import type { ActivityFilter } from './schemas';

export const activityQueries = {
  all: () => ['activity'] as const,
  me: () =>
    queryOptions({
      queryKey: [...activityQueries.all(), 'me'],
      // Not abortable, for the same reason as the team's (presence/api/queries.ts).
      queryFn: fetchMe,
      staleTime: 5 * 60_000,
    }),
  page: (filter: ActivityFilter, cursor: number | null) =>
    queryOptions({
      queryKey: [...activityQueries.all(), 'page', filter, cursor],
      queryFn: ({ signal }) => fetchActivity(filter, { cursor, limit: 50 }, signal),
    }),
  questions: (ids: readonly string[]) =>
    queryOptions({
      queryKey: [...activityQueries.all(), 'questions', [...ids].sort()],
      queryFn: ({ signal }) => fetchActivity({ question: [...ids] }, { limit: 200 }, signal),
      refetchInterval: 15_000,
    }),
};
