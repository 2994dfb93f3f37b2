// How the watcher reaches each system: its mock in this process (the mock's own tenant, as a
// browser without a test tenant sees it), or its real server with the key the portal holds. A
// system the server holds no key for (token sign-in: the browser brings its own) is not watched.
import type { Upstream } from '../proxy/proxy';
import { parseUpstreamUrl, upstreamTarget } from '../proxy/proxy';
import type { SystemFetch } from './read';
import type { WatchedSystem } from './watcher';
import type { SystemKind } from './wire';

type MockApp = { fetch: (request: Request, env?: unknown) => Response | Promise<Response> };

export interface ServedSystem {
  id: string;
  kind: SystemKind;
  name: string;
  mock?: MockApp;
  upstream?: Upstream;
  /** The mocks' API key (MOCK_API_KEY), when they ask for one. */
  mockApiKey?: string | null;
  apiVersion?: string;
  organizationId?: string;
}

/** Told of each request a read sends, for the metrics: status (0 when it failed) and seconds. */
export type OnSystemRequest = (system: string, status: number, seconds: number) => void;

/**
 * Marks the watcher's own reads. A system may be another replica of this portal (REFLEXIO_URL
 * naming a replica that serves the mock): that replica answers browsers from the shared copy, and
 * the copy must not answer the watcher that writes it (it would never learn of a new question).
 */
export const WATCHER_READ_HEADER = 'x-questions-inbox-watcher';

/** Largest list taken from a system (as the proxy's default answer cap). */
const MAX_LIST_BYTES = 64 * 1_048_576;

async function capped(response: Response, max: number): Promise<Response> {
  if (!response.body) return response;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw new Error(`its answer was larger than ${max.toLocaleString('en-US')} bytes`);
    }
    chunks.push(value);
  }
  return new Response(Buffer.concat(chunks), {
    status: response.status,
    headers: response.headers,
  });
}

function fetchOf(system: ServedSystem, onRequest?: OnSystemRequest): SystemFetch | null {
  const timed = (send: () => Promise<Response>): Promise<Response> => {
    const started = performance.now();
    return send().then(
      (response) => {
        onRequest?.(system.id, response.status, (performance.now() - started) / 1000);
        return response;
      },
      (error: unknown) => {
        onRequest?.(system.id, 0, (performance.now() - started) / 1000);
        throw error;
      },
    );
  };
  if (system.upstream) {
    const { upstream } = system;
    // The browser brings its own key (token sign-in): the server cannot read this system.
    if (!upstream.apiKey) return null;
    const parsed = parseUpstreamUrl(upstream.url);
    if (!parsed.ok) return null;
    const base = parsed.url;
    const timeoutMs = upstream.timeoutMs ?? 30_000;
    const maxBytes = upstream.maxResponseBytes ?? MAX_LIST_BYTES;
    return (path, headers) =>
      timed(async () => {
        const [pathname, search = ''] = path.split('?');
        const response = await fetch(
          upstreamTarget(base, pathname ?? '', search ? `?${search}` : ''),
          {
            headers: {
              accept: 'application/json',
              authorization: `Bearer ${upstream.apiKey}`,
              'user-agent': 'questions-inbox-watcher',
              [WATCHER_READ_HEADER]: '1',
              ...headers,
            },
            redirect: 'manual',
            signal: AbortSignal.timeout(timeoutMs),
          },
        );
        return capped(response, maxBytes);
      });
  }
  const { mock } = system;
  if (!mock) return null;
  return (path, headers) =>
    timed(async () =>
      mock.fetch(
        new Request(`http://localhost${path}`, {
          headers: {
            accept: 'application/json',
            ...(system.mockApiKey ? { authorization: `Bearer ${system.mockApiKey}` } : {}),
            ...headers,
          },
        }),
      ),
    );
}

/** The systems this server can watch, each with how it is reached. */
export function watchedSystems(
  systems: readonly ServedSystem[],
  onRequest?: OnSystemRequest,
): WatchedSystem[] {
  return systems.flatMap((system): WatchedSystem[] => {
    const fetch = fetchOf(system, onRequest);
    if (!fetch) return [];
    return [
      {
        id: system.id,
        kind: system.kind,
        name: system.name,
        fetch,
        ...(system.apiVersion ? { apiVersion: system.apiVersion } : {}),
        ...(system.organizationId ? { organizationId: system.organizationId } : {}),
      },
    ];
  });
}
