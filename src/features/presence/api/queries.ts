import { fetchMe } from './requests';
import type { Connection, TeamState } from './schemas';

/** The team's state lives in the cache, put there by the live stream (live/team-live.ts). */
export const teamKeys = {
  all: ['team'] as const,
  state: () => [...teamKeys.all, 'state'] as const,
  connection: () => [...teamKeys.all, 'connection'] as const,
  me: () => [...teamKeys.all, 'me'] as const,
};

export const teamQueries = {
  /** Filled by the stream only: never fetched by a component. */
  state: () =>
    ({
      queryKey: teamKeys.state(),
      queryFn: (): TeamState | null => null,
      enabled: false,
      staleTime: Number.POSITIVE_INFINITY,
    }) as const,
  connection: () =>
    ({
      queryKey: teamKeys.connection(),
      queryFn: (): Connection => 'connecting',
      enabled: false,
      initialData: 'connecting' as Connection,
      staleTime: Number.POSITIVE_INFINITY,
    }) as const,
  me: () =>
    ({
      queryKey: teamKeys.me(),
      // Not abortable: a row or header unmounting while it is on its way (as the app takes the
      // server's HTML over) would cancel it, and the next part to mount would ask again.
      queryFn: fetchMe,
      staleTime: 5 * 60_000,
      // Asked once: a server that cannot say who this is has no presence to show either.
      retry: false,
    }) as const,
};
