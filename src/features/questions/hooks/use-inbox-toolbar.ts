import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import { isSignedOut } from '@/lib/api-client';
import { questionKeys } from '../api/queries';
import type { RefreshIndicatorProps } from '../components/list/refresh-indicator';
import type { StatusCounts } from './use-inbox-data';

/** Refetches every list on screen and the open question, not just the view. */
export function useRefreshAll(): () => void {
  const queryClient = useQueryClient();
  return useCallback(
    () => void queryClient.refetchQueries({ queryKey: questionKeys.all, type: 'active' }),
    [queryClient],
  );
}

/**
 * Counts, pickers and "updated" follow the rows in a deferred render: when a list arrives, its
 * rows paint first and the toolbar a moment later, in short slices.
 */
export function useDeferredToolbarData(
  counts: StatusCounts,
  tags: string[],
  users: string[],
  { updatedAt, fetching, failed, onRefresh }: RefreshIndicatorProps,
) {
  return useDeferredValue(
    useMemo(
      () => ({ counts, tags, users, refresh: { updatedAt, fetching, failed, onRefresh } }),
      [counts, tags, users, updatedAt, fetching, failed, onRefresh],
    ),
  );
}

/**
 * True from the first render in which `wanted` is, and from then on: a lazily loaded part (the
 * drawer, the shortcuts) is mounted when first wanted and stays, so it can animate out.
 */
export function useWantedOnce(wanted: boolean): boolean {
  const [used, setUsed] = useState(wanted);
  if (wanted && !used) setUsed(true);
  return used || wanted;
}

/**
 * The error of the last refresh when it failed after the list on screen was last read, else null.
 * By the read's time, not the query's error state: an action writes its change into the cached
 * list, which clears that state although the server was not read ("Updated just now" over a dead
 * server). A signed-out session is explained by its own alert.
 */
export function useRefreshFailure(view: {
  data: unknown;
  error: unknown;
  dataUpdatedAt: number;
  errorUpdatedAt: number;
}): unknown {
  const [last, setLast] = useState<unknown>(null);
  if (view.error && view.error !== last) setLast(view.error);
  const error = view.error ?? last;
  const failed = !!view.data && view.errorUpdatedAt > view.dataUpdatedAt && !isSignedOut(error);
  return failed ? error : null;
}
