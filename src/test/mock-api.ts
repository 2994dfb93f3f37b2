import { createMockBackend, type MockBackend } from '@mock/app';
import { createManualClock } from '@mock/clock';
import { http } from 'msw';
import { setupServer } from 'msw/node';

/** Where the web tests' API lives; MSW hands every request for it to the real mock backend app. */
export const TEST_ORIGIN = 'http://localhost:3000';
export const TEST_API_ROOT = `${TEST_ORIGIN}/api/`;

/** A fixed "now" for tests: the seed and the portal's clock both start here. */
export const TEST_NOW = Date.parse('2026-11-30T12:00:00.000Z');

let current: { backend: MockBackend; clock: ReturnType<typeof createManualClock> } | null = null;

const server = setupServer(
  http.all(`${TEST_ORIGIN}/api/*`, ({ request }) => getMockApi().backend.app.fetch(request)),
  http.all(`${TEST_ORIGIN}/__mock/*`, ({ request }) => getMockApi().backend.app.fetch(request)),
  // The portal server's own routes (who is signed in, the audit trail) are not there: the unit
  // tests stand for a portal served without it (nginx alone, a static host).
  http.all(`${TEST_ORIGIN}/portal-api/*`, () =>
    Response.json({ detail: 'Not Found' }, { status: 404 }),
  ),
);

export function startMockApi() {
  server.listen({ onUnhandledRequest: 'error' });
}

export function closeMockApi() {
  server.close();
}

let releaseHeld: Array<() => void> = [];

export function resetMockApi() {
  for (const release of releaseHeld) release();
  releaseHeld = [];
  server.resetHandlers();
  server.events.removeAllListeners();
  current?.backend.close();
  current = null;
}

/**
 * Holds the next POST to the API until `release()` is called, then hands it to the mock, and counts
 * the POSTs sent from now on (`posts()`): a test
 * sees the in-flight state for as long as it needs, on a machine of any speed (a fault's latency
 * is a race with the test's own steps).
 */
export function holdNextPost(): { release: () => void; posts: () => number } {
  let posts = 0;
  server.events.on('request:start', ({ request }) => {
    if (request.method === 'POST' && request.url.startsWith(TEST_API_ROOT)) posts += 1;
  });
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  releaseHeld.push(release);
  server.use(
    http.post(
      `${TEST_ORIGIN}/api/*`,
      async ({ request }) => {
        await gate;
        return getMockApi().backend.app.fetch(request);
      },
      { once: true },
    ),
  );
  return { release, posts: () => posts };
}

/** Every GET of Reflexio's list sent from now on, as its query string (`status=pending&limit=500`). */
export function recordListRequests(): string[] {
  const seen: string[] = [];
  server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    if (request.method === 'GET' && url.href.startsWith(`${TEST_API_ROOT}pending_tool_calls?`)) {
      seen.push(url.search.slice(1));
    }
  });
  return seen;
}

/** Further request handlers for this test only (another system's API, say); reset after each test. */
export function useExtraHandlers(...handlers: Parameters<typeof server.use>) {
  server.use(...handlers);
}

/** The mock backend for this test: created on first use with a manual clock at TEST_NOW. */
export function getMockApi(options: { seed?: 'demo' | 'empty'; apiKey?: string } = {}) {
  if (!current) {
    const clock = createManualClock(TEST_NOW);
    current = {
      clock,
      backend: createMockBackend({
        clock,
        seed: options.seed ?? 'demo',
        apiKey: options.apiKey ?? null,
        sweepIntervalMs: 0,
      }),
    };
  }
  return current;
}

/** Calls the mock's control surface, as the e2e tests do over HTTP. */
export async function mockControl(path: string, body?: unknown, method = 'POST'): Promise<unknown> {
  const response = await getMockApi().backend.app.fetch(
    new Request(`${TEST_ORIGIN}/__mock/${path}`, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const text = await response.text();
  if (!response.ok) throw new Error(`mock control ${path} failed: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}
