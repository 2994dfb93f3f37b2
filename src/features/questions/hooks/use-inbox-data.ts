import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useRuntimeConfig } from '@/config/runtime-config';
import { useSession } from '@/lib/session-store';
import { useQuestionQueries } from '../api/queries';
import { type QuestionList, questionStatuses } from '../api/schemas';
import type { StatusFilter } from '../utils/filters';

export interface StatusCount {
  count: number;
  /** The server returned its maximum page: there are at least this many. */
  atLeast: boolean;
}

export type StatusCounts = Partial<Record<StatusFilter, StatusCount>>;

function countsFrom(
  all: QuestionList | undefined,
  lists: Partial<Record<StatusFilter, QuestionList>>,
) {
  const counts: StatusCounts = {};
  if (all)
    counts.all = { count: all.questions.length + all.unreadable.length, atLeast: all.truncated };
  for (const status of questionStatuses) {
    const own = lists[status];
    if (all && !all.truncated) {
      counts[status] = {
        count: all.questions.filter((q) => q.status === status).length,
        atLeast: false,
      };
    } else if (own) {
      counts[status] = { count: own.questions.length, atLeast: own.truncated };
    }
  }
  return counts;
}

/**
 * The lists behind the inbox: the current view, the pending list (tab title, new arrivals) and
 * the unfiltered list (counts). The same key is one query, so a view of "pending" costs nothing extra.
 */
export function useInboxData(status: StatusFilter, viewShown: boolean) {
  const queries = useQuestionQueries();
  const { pollIntervalMs } = useRuntimeConfig();
  const { state: session } = useSession();
  // A signed-out session sends nothing: no polling, no refetch on focus, until the reviewer signs in.
  const polling = { refetchInterval: pollIntervalMs, enabled: session === 'active' };

  const view = useQuery({ ...queries.list(status), ...polling });
  // The view comes first: the other lists (tab title, counts, pickers) wait until its rows are on
  // screen (or it failed), so they never compete with it for the network or the main thread.
  const viewAnswered = viewShown || view.isError;
  const pending = useQuery({
    ...queries.list('pending'),
    ...polling,
    enabled: polling.enabled && (status === 'pending' || viewAnswered),
  });
  const all = useQuery({
    ...queries.list('all'),
    ...polling,
    enabled: polling.enabled && (status === 'all' || viewAnswered),
  });

  const counts = useMemo(() => {
    const lists: Partial<Record<StatusFilter, QuestionList>> = {};
    if (view.data) lists[status] = view.data;
    if (pending.data) lists.pending = pending.data;
    return countsFrom(all.data, lists);
  }, [all.data, pending.data, view.data, status]);

  return { view, pending, all, counts };
}
