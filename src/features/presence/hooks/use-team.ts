import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { useClock } from '@/lib/clock';
import { teamQueries } from '../api/queries';
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
  const { data: state } = useQuery(teamQueries.state());
  const { data: connection } = useQuery(teamQueries.connection());
  const { data: me } = useQuery(teamQueries.me());
  const clock = useClock();
  const tick = useSyncExternalStore(clock.subscribe, () => Math.floor(clock.now() / 5_000));
  const now = Math.max(tick * 5_000, clock.now()) + live.offsetMs();
  return { state: state ?? null, connection, me: me ?? null, now };
}
