import type { QueryClient } from '@tanstack/react-query';
import { type RuntimeConfig, sourceLabel, sourcesNeedingKeys } from '@/config/runtime-config';
import { createTokenStore, type TokenStore } from '@/config/token-store';
import type { QuestionSource } from '@/features/questions/api/source';
import {
  createLazySource,
  type InboxMember,
  inboxIdentity,
} from '@/features/questions/sources/lazy-source';
import {
  createReflexioClient,
  createReflexioSource,
} from '@/features/questions/sources/reflexio/client';
import type { ResponseTiming } from '@/lib/api-client';
import { createServerTime, type ServerTime } from '@/lib/clock';
import { createQueryClient } from '@/lib/query-client';
import { createSessionStore, type SessionStore } from '@/lib/session-store';
import { isPrefetchedResponse, withPrefetchedList } from './prefetch';

export interface Services {
  session: SessionStore;
  tokens: TokenStore;
  source: QuestionSource;
  queryClient: QueryClient;
  /** Each configured source's server time, keyed by the source's id (see inboxMembers). */
  serverTime: ServerTime;
}

/** Resolves the API root against the page's base, so `api` means `<sub-path>/api/`. */
export function apiRootUrl(config: Pick<RuntimeConfig, 'apiBaseUrl'>, baseUrl: URL): URL {
  const root = config.apiBaseUrl ?? 'api';
  return new URL(root.endsWith('/') ? root : `${root}/`, baseUrl);
}

/**
 * One member per configured source; each takes the first list prefetch.js started for it. Every
 * client feeds its source's server time (keyed by the source's id, which its questions carry).
 */
function inboxMembers(
  config: RuntimeConfig,
  baseUrl: URL,
  headers: (sourceId: string) => Record<string, string>,
  serverTime: ServerTime,
  baseFetch: typeof fetch,
): InboxMember[] {
  return config.sources.map((entry) => {
    const origin = {
      id: entry.id,
      kind: entry.kind,
      label: sourceLabel(entry),
    };
    const apiBaseUrl = apiRootUrl(entry, baseUrl).href;
    // prefetch.js sent a first list before this code ran: no later than the page's start, which
    // widens that sample's interval but keeps it true.
    const onResponse = (timing: ResponseTiming) =>
      serverTime.sample(
        entry.id,
        isPrefetchedResponse(timing.response)
          ? { ...timing, sentAt: Math.min(timing.sentAt, Date.now() - performance.now()) }
          : timing,
      );
    // Each system's first list may be the one prefetch.js started (see src/app/prefetch.ts).
    const fetchImpl = withPrefetchedList(baseFetch);
    // Their adapters load with the first list (createLazySource), not with the first screen.
    const systems = () => import('@/features/questions/sources/system-sources');
    if (entry.kind === 'vertesia') {
      // A getter: each request carries the key the reviewer holds at that moment (token mode).
      const vertesia = {
        apiBaseUrl,
        apiVersion: entry.apiVersion,
        get headers() {
          return headers(entry.id);
        },
        onResponse,
      };
      return {
        origin,
        source: createLazySource({ key: `vertesia:${apiBaseUrl}`, label: origin.label }, () =>
          systems().then((module) => module.createVertesiaSource(origin, vertesia, fetchImpl)),
        ),
      };
    }
    if (entry.kind === 'bilby') {
      const bilby = {
        apiBaseUrl,
        get headers() {
          return headers(entry.id);
        },
        onResponse,
        ...(entry.organizationId ? { organizationId: entry.organizationId } : {}),
      };
      return {
        origin,
        source: createLazySource({ key: `bilby:${apiBaseUrl}`, label: origin.label }, () =>
          // What this browser sent is stamped by Bilby's clock, as the rest of its times are.
          systems().then((module) =>
            module.createBilbySource(
              origin,
              bilby,
              fetchImpl,
              () => Date.now() + serverTime.offsetMs(entry.id),
            ),
          ),
        ),
      };
    }
    const client = createReflexioClient({
      baseUrl: new URL(apiBaseUrl),
      headers: () => headers(entry.id),
      fetchImpl,
      onResponse,
    });
    const source = createReflexioSource(client, origin);
    return { origin, source };
  });
}

export function createServices(
  config: RuntimeConfig,
  baseUrl: URL,
  options: {
    retries?: boolean;
    /** The server's render reads through the portal itself (entry-server.tsx). */
    fetchImpl?: typeof fetch;
  } = {},
): Services {
  const session = createSessionStore();
  const keyed = new Set(sourcesNeedingKeys(config).map((source) => source.id));
  const tokens = createTokenStore([...keyed]);
  // Token mode: each source gets the reviewer's key for it (sources marked `auth: "server"` get
  // theirs from the portal's server or the proxy).
  const headers = (sourceId: string) => {
    const token = keyed.has(sourceId) ? tokens.get(sourceId) : null;
    return token ? { ...config.headers, Authorization: `Bearer ${token}` } : { ...config.headers };
  };
  const serverTime = createServerTime();
  const baseFetch = options.fetchImpl ?? ((input, init) => fetch(input, init));
  const members = inboxMembers(config, baseUrl, headers, serverTime, baseFetch);
  const only = members.length === 1 && members[0]?.origin.kind === 'reflexio' ? members[0] : null;
  // Several systems read as one: that code loads with the first list, not with the first screen.
  const source = only
    ? only.source
    : createLazySource(inboxIdentity(members), () =>
        import('@/features/questions/sources/inbox-source').then((module) =>
          module.createInboxSource(members),
        ),
      );
  return {
    session,
    tokens,
    source,
    serverTime,
    queryClient: createQueryClient(session, { retries: options.retries }),
  };
}
