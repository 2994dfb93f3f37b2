import { hydrate, type QueryClient } from '@tanstack/react-query';
import type { FirstScreenState } from '@/lib/first-screen';

/**
 * The lists the server rendered the first screen with, put into the query cache before the app
 * takes the page over (main.tsx). Its own file, downloaded with the parts the page holds: only a
 * page the portal server rendered needs TanStack Query's hydration.
 */
export function takeLists(queryClient: QueryClient, first: FirstScreenState) {
  hydrate(queryClient, first.queries);
  // In the query cache now: the server's copy of them is let go.
  first.queries = { queries: [], mutations: [] };
  // A list the server sent without a system that was late (named as still loading) is read again
  // whole.
  void queryClient.invalidateQueries({
    predicate: (query) =>
      ((query.state.data as { loading?: unknown[] } | undefined)?.loading?.length ?? 0) > 0,
  });
}
