import { type QueryClient, QueryObserver, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { firstScreenNow, useClock } from '@/lib/clock';
import { useAfterHydration } from '@/lib/first-screen';
import { teamKeys, teamQueries } from '../api/queries';
import type { TeamState } from '../api/schemas';
import { teamLive } from '../live/team-live';

/**
 * The team's state as the live stream last put it in the cache, who this browser's reviewer is,
 * and the server's time, re-read every 5 s (a lapsed claim leaves the screen within 5 s).
 */
export function useTeam() {
  const queryClient = useQueryClient();
  // One request says both who this is and whether there is a portal server at all.
  const live = teamLive(queryClient, () =>
    queryClient.fetchQuery(teamQueries.me()).then((me) => me !== null),
  );
  // Nothing of the team is in the server's first screen (the browser asks for it).
  const state = useAfterHydration(useQuery(teamQueries.state()).data, () => undefined);
  const connection = useAfterHydration(useQuery(teamQueries.connection()).data, () => undefined);
  const me = useAfterHydration(useQuery(teamQueries.me()).data, () => undefined);
  const clock = useClock();
  const readTick = () => Math.floor(clock.now() / 5_000);
  const firstTick = () => Math.floor(firstScreenNow(clock) / 5_000);
  const tick = useSyncExternalStore(clock.subscribe, readTick, firstTick);
  const now = Math.max(tick * 5_000, clock.now()) + live.offsetMs();
  return { state: state ?? null, connection, me: me ?? null, now };
}

interface RowTeamSnapshot {
  state: TeamState | null;
  me: string | null;
}

interface RowTeamStore {
  subscribe(listener: () => void): () => void;
  read(): RowTeamSnapshot;
}

const NO_ROW_TEAM: RowTeamSnapshot = { state: null, me: null };
const noRowTeam = () => NO_ROW_TEAM;

const rowStores = new WeakMap<QueryClient, RowTeamStore>();

/**
 * The team's state and who this is, for every row at once: one observer of each query for the
 * page while rows show them, instead of three queries per row (their hooks, observers and
 * results were ~0.1 MB of the heap with a screenful of pending rows).
 */
function rowTeamStore(queryClient: QueryClient): RowTeamStore {
  const known = rowStores.get(queryClient);
  if (known) return known;
  const observers = [
    new QueryObserver(queryClient, teamQueries.state()),
    new QueryObserver(queryClient, teamQueries.me()),
  ];
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };
  let stop: (() => void) | null = null;
  let snapshot: RowTeamSnapshot = { state: null, me: null };
  const store: RowTeamStore = {
    subscribe(listener) {
      listeners.add(listener);
      if (!stop) {
        const ends = observers.map((observer) => observer.subscribe(notify));
        stop = () => {
          for (const end of ends) end();
        };
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size > 0) return;
        stop?.();
        stop = null;
      };
    },
    read() {
      const state = queryClient.getQueryData<TeamState | null>(teamKeys.state()) ?? null;
      const me = queryClient.getQueryData<string | null>(teamKeys.me()) ?? null;
      if (state !== snapshot.state || me !== snapshot.me) snapshot = { state, me };
      return snapshot;
    },
  };
  rowStores.set(queryClient, store);
  return store;
}

/** useTeam for a row: the same state, who this is and time, without the connection. */
export function useRowTeam() {
  const queryClient = useQueryClient();
  const live = teamLive(queryClient, () =>
    queryClient.fetchQuery(teamQueries.me()).then((me) => me !== null),
  );
  const store = rowTeamStore(queryClient);
  // The server's first screen has no team yet, nor has the browser's render that takes it over.
  const { state, me } = useSyncExternalStore(store.subscribe, store.read, noRowTeam);
  const clock = useClock();
  const readTick = () => Math.floor(clock.now() / 5_000);
  const firstTick = () => Math.floor(firstScreenNow(clock) / 5_000);
  const tick = useSyncExternalStore(clock.subscribe, readTick, firstTick);
  const now = Math.max(tick * 5_000, clock.now()) + live.offsetMs();
  return { state, me, now };
}
