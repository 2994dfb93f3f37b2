import { queryOptions } from '@tanstack/react-query';
import { fetchSnippets } from './requests';

export const snippetKeys = {
  all: ['snippets'] as const,
  /** One system's snippets (null: every system's). */
  list: (sourceId: string | null) => [...snippetKeys.all, 'list', sourceId] as const,
};

export const snippetQueries = {
  list: (sourceId: string | null) =>
    queryOptions({
      queryKey: snippetKeys.list(sourceId),
      queryFn: ({ signal }) => fetchSnippets(sourceId, signal),
      // Read again each time the menu opens (a colleague may have saved one meanwhile).
      staleTime: 30_000,
      retry: false,
    }),
};
