import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError, isSignedOut } from './api-client';
import type { SessionStore } from './session-store';

const RETRYABLE = new Set(['network', 'timeout', 'unavailable', 'server', 'rate-limited']);
const MAX_READ_RETRIES = 3;

export function shouldRetryRead(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_READ_RETRIES) return false;
  return isApiError(error) && RETRYABLE.has(error.kind);
}

/** Exponential backoff (1 s, 2 s, 4 s … capped at 30 s), or the server's `Retry-After`. */
export function readRetryDelay(attempt: number, error: unknown): number {
  if (isApiError(error) && error.retryAfterMs !== null)
    return Math.min(error.retryAfterMs, 120_000);
  return Math.min(1000 * 2 ** attempt, 30_000);
}

export function createQueryClient(session: SessionStore, options: { retries?: boolean } = {}) {
  const onError = (error: unknown) => {
    if (isSignedOut(error)) session.end();
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        retry: options.retries === false ? false : shouldRetryRead,
        retryDelay: readRetryDelay,
        staleTime: 2_000,
        refetchOnWindowFocus: true,
        refetchIntervalInBackground: false,
      },
      mutations: {
        // Writes are never repeated behind the reviewer's back; a failed one waits for a click.
        retry: false,
        networkMode: 'always',
      },
    },
  });
}
