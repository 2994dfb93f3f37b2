import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { fetchInsights } from './requests';
import type { InsightsQuery } from './schemas';

export const insightsQueries = {
  all: () => ['insights'] as const,
  figures: (query: InsightsQuery) =>
    queryOptions({
      queryKey: [...insightsQueries.all(), 'figures', query],
      queryFn: ({ signal }) => fetchInsights(query, signal),
      // "Now" moves: read again each minute while the page is open (the range moves with it).
      refetchInterval: 60_000,
      placeholderData: keepPreviousData,
    }),
};
