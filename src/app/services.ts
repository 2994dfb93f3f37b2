import type { QueryClient } from '@tanstack/react-query';
import type { RuntimeConfig } from '@/config/runtime-config';
import { createTokenStore, type TokenStore } from '@/config/token-store';
import { createReflexioSource } from '@/features/questions/api/requests';
import type { QuestionSource } from '@/features/questions/api/source';
import {
  createBilbySource,
  createInboxSource,
  createVertesiaSource,
  type InboxMember,
} from '@/features/questions/sources/inbox-source';
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

const SYSTEM_NAMES = { reflexio: 'Reflexio', vertesia: 'Vertesia', bilby: 'Bilby' } as const;

/** One member per configured source; Reflexio's client takes the prefetched first list. */
function inboxMembers(
  config: RuntimeConfig,
  baseUrl: URL,
  headers: () => Record<string, string>,
): InboxMember[] {
  return config.sources.map((entry) => {
    const origin = {
      id: entry.id,
      kind: entry.kind,
      label: entry.label ?? SYSTEM_NAMES[entry.kind],
    };
    const apiBaseUrl = apiRootUrl(entry, baseUrl).href;
    if (entry.kind === 'vertesia') {
      return {
        origin,
        source: createVertesiaSource(origin, {
          apiBaseUrl,
          apiVersion: entry.apiVersion,
          headers: { ...config.headers },
        }),
      };
    }
    if (entry.kind === 'bilby') {
      return {
        origin,
        source: createBilbySource(origin, {
          apiBaseUrl,
          headers: { ...config.headers },
          ...(entry.organizationId ? { organizationId: entry.organizationId } : {}),
        }),
      };
    }
    const client = createApiClient({
      baseUrl: new URL(apiBaseUrl),
      headers,
      fetchImpl: withPrefetchedList((input, init) => fetch(input, init)),
    });
    return { origin, source: createReflexioSource(client, origin) };
  });
}

export function createServices(
  config: RuntimeConfig,
  baseUrl: URL,
  options: { retries?: boolean } = {},
): Services {
  const session = createSessionStore();
  const tokens = createTokenStore(config.auth.mode === 'token');
  // Token mode: the reviewer's key goes to Reflexio (Vertesia and Bilby keys are added by the server).
  const headers = () => {
    const token = config.auth.mode === 'token' ? tokens.get() : null;
    return token ? { ...config.headers, Authorization: `Bearer ${token}` } : { ...config.headers };
  };
  const members = inboxMembers(config, baseUrl, headers);
  const only = members.length === 1 && members[0]?.origin.kind === 'reflexio' ? members[0] : null;
  return {
    session,
    tokens,
    source: only ? only.source : createInboxSource(members),
    queryClient: createQueryClient(session, { retries: options.retries }),
  };
}
