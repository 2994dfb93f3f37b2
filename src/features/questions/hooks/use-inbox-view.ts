import { useEffect, useMemo, useState } from 'react';
import { markFirstScreenShown, whenIdle } from '@/lib/idle';
import type { Question } from '../api/schemas';
import {
  applyFilters,
  facetValues,
  hasNarrowingFilters,
  type InboxFilters,
  shownPerStatus,
} from '../utils/filters';
import { useInboxData, withShown } from './use-inbox-data';

const NO_QUESTIONS: Question[] = [];

/**
 * The inbox's lists and what the page shows of them: the view filtered as the search box is typed
 * (the URL catches up a moment later), and the tag and user pickers' values. The other lists wait
 * until the view's first rows are on screen; then `whenIdle` runs (the drawer's code loads).
 */
export function useInboxView(filters: InboxFilters, typedQuery: string, whenIdleAfter: () => void) {
  // The Claimed filter's predicate, set by the team's lazily loaded bar (null: no filter).
  const [keep, setKeep] = useState<((question: Question) => boolean) | null>(null);
  // Set once the first rows are committed; the secondary lists wait for it.
  const [viewShown, setViewShown] = useState(false);
  const { view, pending, all, counts: totals } = useInboxData(filters.status, viewShown);
  // A poll that changes nothing keeps the same data (structural sharing): the page re-renders for
  // its fetching state, but the memoized list and rows do not.
  const listData = view.data;
  // By value: when the URL catches up with the typed text (200 ms later), nothing is filtered again.
  const { status, tag, user, source, sort } = filters;
  const liveFilters = useMemo(
    () => ({ status, q: typedQuery, tag, user, source, sort }),
    [status, typedQuery, tag, user, source, sort],
  );
  const visible = useMemo(() => {
    const shown = listData ? applyFilters(listData.questions, liveFilters) : [];
    return keep ? shown.filter(keep) : shown;
  }, [listData, liveFilters, keep]);
  const visibleIds = useMemo(() => visible.map((q) => q.id), [visible]);
  // With a tag, user, source or search filter on, the status filter says "2 of 20": every status
  // once the complete list is in, else the view's own.
  const complete = all.data && !all.data.truncated ? all.data : undefined;
  // The Claimed filter narrows too: "Pending 0 of 40", and "Clear filters" when it hides them all.
  const narrowed = hasNarrowingFilters(liveFilters) || keep !== null;
  const counts = useMemo(() => {
    if (!narrowed) return totals;
    const shown = complete
      ? shownPerStatus(complete.questions, liveFilters, visible, keep)
      : { [liveFilters.status]: visible.length };
    return withShown(totals, shown);
  }, [totals, complete, liveFilters, visible, keep, narrowed]);

  const listShown = listData !== undefined;
  useEffect(() => {
    if (!listShown) return;
    markFirstScreenShown();
    setViewShown(true);
    return whenIdle(whenIdleAfter);
  }, [listShown, whenIdleAfter]);

  const facetSource = all.data?.questions ?? view.data?.questions ?? NO_QUESTIONS;
  const tags = useMemo(() => facetValues(facetSource, (q) => q.tags), [facetSource]);
  const users = useMemo(
    () => facetValues(facetSource, (q) => (q.userId ? [q.userId] : [])),
    [facetSource],
  );

  return {
    view,
    pending,
    counts,
    liveFilters,
    narrowed,
    visible,
    visibleIds,
    tags,
    users,
    setKeep,
  };
}
