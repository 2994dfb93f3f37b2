import type { QueryClient } from '@tanstack/react-query';
import type { RuntimeConfig } from '@/config/runtime-config';
import { createTokenStore, type TokenStore } from '@/config/token-store';
import { createReflexioSource } from '@/features/questions/api/requests';
import type { QuestionSource } from '@/features/questions/api/source';
import { createApiClient } from '@/lib/api-client';
import { createServerTime, type ServerTime } from '@/lib/clock';
import { createQueryClient } from '@/lib/query-client';
import { createSessionStore, type SessionStore } from '@/lib/session-store';
import { isPrefetchedResponse, withPrefetchedList } from './prefetch';

export interface Services {
  session: SessionStore;
  tokens: TokenStore;
  source: QuestionSource;
  queryClient: QueryClient;
  serverTime: ServerTime;
}

/** Resolves the API root against the page's base, so `api` means `<sub-path>/api/`. */
export function apiRootUrl(config: RuntimeConfig, baseUrl: URL): URL {
  const raw = config.apiBaseUrl.endsWith('/') ? config.apiBaseUrl : `${config.apiBaseUrl}/`;
  return new URL(raw, baseUrl);
}

export function createServices(
  config: RuntimeConfig,
  baseUrl: URL,
  options: { retries?: boolean } = {},
): Services {
  const session = createSessionStore();
  const tokens = createTokenStore(config.auth.mode === 'token');
  const serverTime = createServerTime();
  const client = createApiClient({
    baseUrl: apiRootUrl(config, baseUrl),
    headers: () => {
      const token = config.auth.mode === 'token' ? tokens.get() : null;
      return token
        ? { ...config.headers, Authorization: `Bearer ${token}` }
        : { ...config.headers };
    },
    fetchImpl: withPrefetchedList((input, init) => fetch(input, init)),
    onResponse: ({ response, ...sample }) => {
      // prefetch.js sent the first list before this code ran: no later than the page's start,
      // which widens that sample's interval but keeps it true.
      const sentAt = isPrefetchedResponse(response)
        ? Math.min(sample.sentAt, Date.now() - performance.now())
        : sample.sentAt;
      serverTime.sample(source.key, { ...sample, sentAt });
    },
  });
  const source = createReflexioSource(client);
  return {
    session,
    tokens,
    serverTime,
    source,
    queryClient: createQueryClient(session, { retries: options.retries }),
  };
}
