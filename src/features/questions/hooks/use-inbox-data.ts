import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { type Clock, useClock, useHasPassed } from '@/lib/clock';
import { useSession } from '@/lib/session-store';
import { useQuestionQueries } from '../api/queries';
import { type QuestionList, questionStatuses } from '../api/schemas';
import type { StatusFilter } from '../utils/filters';
import { readListsCut, rememberListsCut } from '../utils/lists-cut';
import { useLiveChanges } from './use-live-changes';
import { useLeading, usePollVersion, useSharedPoller } from './use-shared-poller';

export interface StatusCount {
  count: number;
  /** The server returned its maximum page: there are at least this many. */
  atLeast: boolean;
  /** With a tag, user, source or search filter on: how many of them it lets through. */
  shown?: number;
}

export type StatusCounts = Partial<Record<StatusFilter, StatusCount>>;

/** The counts with how many of each the filters show ("2 of 20"), where that is known. */
export function withShown(
  counts: StatusCounts,
  shown: Partial<Record<StatusFilter, number>> | null,
): StatusCounts {
  if (!shown) return counts;
  const result: StatusCounts = {};
  for (const [status, count] of Object.entries(counts) as Array<[StatusFilter, StatusCount]>) {
    const number = shown[status];
    result[status] = number === undefined ? count : { ...count, shown: number };
  }
  return result;
}

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
 * One status's list cut from the complete `all` list (records that could not be read have no
 * status to go by: they stay in every view rather than vanish).
 */
export function listOfStatus(all: QuestionList, status: StatusFilter): QuestionList {
  if (status === 'all') return all;
  return { ...all, questions: all.questions.filter((q) => q.status === status) };
}

/**
 * The soonest expiry still ahead among pending questions, in the page's time (each question's
 * deadline is its own server's), to refresh the lists the moment it passes.
 */
function soonestExpiry(list: QuestionList | undefined, clock: Clock): number | null {
  const now = clock.now();
  let soonest: number | null = null;
  for (const q of list?.questions ?? []) {
    if (q.status !== 'pending' || q.expiresAt === null) continue;
    const at = q.expiresAt - clock.offsetMs(q.source.id);
    if (at > now && (soonest === null || at < soonest)) soonest = at;
  }
  return soonest;
}

/**
 * The lists behind the inbox: the current view, the pending list (tab title, new arrivals) and
 * the unfiltered list (counts). An inbox whose unfiltered list holds everything (it is not cut at
 * the API's limit) asks for that list alone, once per source, and cuts the view and the pending
 * list from it; each source's rows show as it answers. One whose list was cut last time asks for
 * the view's own list first, and the others once its rows are on screen. Only `all` is polled
 * while it holds everything. One tab per browser polls (see useSharedPoller); the others get its
 * results.
 */
export function useInboxData(status: StatusFilter, viewShown: boolean) {
  const queries = useQuestionQueries();
  const clock = useClock();
  const { state: session } = useSession();
  const poller = useSharedPoller();
  const leading = useLeading(poller);
  usePollVersion(poller);
  const active = session === 'active';
  // Where the portal server watches every system, its changes come on the live stream: no
  // polling then (it starts again if the stream drops).
  const live = useLiveChanges();
  const polls = leading && !live;
  // A signed-out session sends nothing: no polling, no refetch on focus, until the reviewer signs in.
  const polling = {
    refetchInterval: polls ? () => poller.nextDelay() : (false as const),
    refetchOnWindowFocus: polls,
    refetchIntervalInBackground: polls && poller.pollsWhileHidden(),
  };
  // Read once: what this browser saw last time decides which list a first load asks for.
  const [expectCut] = useState(readListsCut);

  const allQuery = useQuery({
    ...queries.list('all'),
    ...polling,
    // When the view needs its own list, it comes first: the unfiltered list (counts, pickers)
    // waits until the view's rows are on screen (or it failed).
    enabled: active && (status === 'all' || !expectCut || viewShown),
  });
  const allData = allQuery.data;
  // Everything there is, from the sources that have answered so far.
  const whole = allData && !allData.truncated ? allData : undefined;
  // Every source has answered.
  const complete = whole && !whole.loading ? whole : undefined;
  useEffect(() => {
    if (allData && !allData.loading) rememberListsCut(allData.truncated);
  }, [allData]);
  // A status's own list, where the unfiltered one cannot serve it: cut at the API's limit, or
  // expected to be (until it is known whole).
  const ownLists = !complete && (expectCut || allData?.truncated === true);
  const viewQuery = useQuery({
    ...queries.list(status),
    ...polling,
    enabled: active && (status === 'all' || ownLists),
  });
  const viewAnswered = viewShown || viewQuery.isError;
  const pendingQuery = useQuery({
    ...queries.list('pending'),
    ...polling,
    enabled: active && ownLists && (status === 'pending' || viewAnswered),
  });

  // The view's own list (while the unfiltered one is cut) waits for its first answer: until then,
  // the view's rows among the unfiltered list's 500 are shown.
  const fromAll = status !== 'all' && (!ownLists || (!viewQuery.data && allData !== undefined));
  const viewData = useMemo(
    () => (fromAll && allData ? listOfStatus(allData, status) : viewQuery.data),
    [fromAll, allData, status, viewQuery.data],
  );
  const pendingData = useMemo(
    () =>
      whole ? listOfStatus(whole, 'pending') : status === 'pending' ? viewData : pendingQuery.data,
    [whole, status, viewData, pendingQuery.data],
  );
  // Without its own list, the view is the unfiltered list's query (its loading, error and retry).
  const view = fromAll ? { ...allQuery, data: viewData } : viewQuery;
  const pending = { data: pendingData };

  // The moment a question runs out, the server's answer is worth having (superseded, new ones).
  const [expiries, setExpiries] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `expiries` moves on to the next one.
  const soonest = useMemo(
    () => soonestExpiry(complete ?? pendingData, clock),
    [complete, pendingData, clock, expiries],
  );
  const expired = useHasPassed(soonest);
  useEffect(() => {
    if (!expired) return;
    setExpiries((n) => n + 1);
    // Live, the server's next read brings the expiry.
    if (polls && active) poller.refreshNow();
  }, [expired, polls, active, poller]);

  const counts = useMemo(() => {
    const lists: Partial<Record<StatusFilter, QuestionList>> = {};
    if (viewData) lists[status] = viewData;
    if (pendingData) lists.pending = pendingData;
    return countsFrom(allQuery.data, lists);
  }, [allQuery.data, pendingData, viewData, status]);

  return { view, pending, all: allQuery, counts };
}
