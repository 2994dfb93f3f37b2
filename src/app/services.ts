import type { QueryClient } from '@tanstack/react-query';
import type { RuntimeConfig } from '@/config/runtime-config';
import { createTokenStore, type TokenStore } from '@/config/token-store';
import { createReflexioSource } from '@/features/questions/api/requests';
import type { QuestionSource } from '@/features/questions/api/source';
import { createApiClient } from '@/lib/api-client';
import { createQueryClient } from '@/lib/query-client';
import { createSessionStore, type SessionStore } from '@/lib/session-store';
import { withPrefetchedList } from './prefetch';

export interface Services {
  session: SessionStore;
  tokens: TokenStore;
  source: QuestionSource;
  queryClient: QueryClient;
}

/** Resolves the API root against the page's base, so `api` means `<sub-path>/api/`. */
export function apiRootUrl(config: Pick<RuntimeConfig, 'apiBaseUrl'>, baseUrl: URL): URL {
  const root = config.apiBaseUrl ?? 'api';
  return new URL(root.endsWith('/') ? root : `${root}/`, baseUrl);
}

export function createServices(
  config: RuntimeConfig,
  baseUrl: URL,
  options: { retries?: boolean } = {},
): Services {
  const session = createSessionStore();
  const tokens = createTokenStore(config.auth.mode === 'token');
  const client = createApiClient({
    baseUrl: apiRootUrl(config, baseUrl),
    headers: () => {
      const token = config.auth.mode === 'token' ? tokens.get() : null;
      return token
        ? { ...config.headers, Authorization: `Bearer ${token}` }
        : { ...config.headers };
    },
    fetchImpl: withPrefetchedList((input, init) => fetch(input, init)),
  });
  return {
    session,
    tokens,
    source: createReflexioSource(client),
    queryClient: createQueryClient(session, { retries: options.retries }),
  };
}
