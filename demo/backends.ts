import type { Hono } from 'hono';
import { z } from 'zod';
import { createMockBackend } from '../mock/app';
import { createBilbyMock } from '../mock/bilby/app';
import { createVertesiaMock } from '../mock/vertesia/app';

/** One mock backend as the demo's Service Worker runs it. */
export interface DemoBackend {
  /** Where its state is kept in IndexedDB. */
  name: string;
  /** First path segments it answers, relative to the demo's root (`api` answers `api/…`). */
  prefixes: readonly string[];
  /**
   * Taken off the path before the mock sees it, as the portal server does: `vertesia` makes
   * `vertesia/api/v1/…` the mock's own `/api/v1/…`.
   */
  mount?: string;
  /** A request whose path is the backend's own (`/api/…`), as the mock's Hono app expects. */
  fetch(request: Request): Response | Promise<Response>;
  snapshot(): unknown;
  /** False when `saved` is not a snapshot it can take (then it keeps its seed data). */
  restore(saved: unknown): boolean;
  /** The agent simulator asks one question; absent when the backend has no simulator. */
  tick?(): Promise<void>;
  /** How often the simulator asks (default: every 20 s). */
  tickEveryMs?: number;
}

/** The backend a path under the demo's root (`vertesia/api/v1/…`) is for, and the path it sees. */
export function route(
  backends: readonly DemoBackend[],
  path: string,
): { backend: DemoBackend; path: string } | null {
  const first = path.split('/')[0] ?? '';
  const backend = backends.find((candidate) => candidate.prefixes.includes(first));
  if (!backend) return null;
  return {
    backend,
    path: backend.mount === undefined ? `/${path}` : path.slice(backend.mount.length) || '/',
  };
}

const snapshotSchema = z.object({
  clockOffsetMs: z.number().finite(),
  calls: z.array(
    z.looseObject({
      id: z.string(),
      org_id: z.string(),
      status: z.enum(['pending', 'resolved', 'expired', 'superseded', 'cancelled']),
      created_at: z.string(),
    }),
  ),
});

/** The Reflexio mock of `mock/app.ts`, exactly as `npm start` runs it. */
export function reflexioDemo(): DemoBackend {
  // Expiry is swept before every request instead of on a timer: a Service Worker's timers stop
  // whenever the browser puts it to sleep.
  const mock = createMockBackend({ seed: 'demo', sweepIntervalMs: 0, latencyMs: 150 });
  return {
    name: 'reflexio',
    prefixes: ['api', '__mock'],
    fetch(request) {
      mock.sweep();
      return mock.app.fetch(request);
    },
    snapshot: () => mock.snapshot(),
    restore(saved) {
      const parsed = snapshotSchema.safeParse(saved);
      if (!parsed.success) return false;
      mock.restore(saved as ReturnType<typeof mock.snapshot>);
      return true;
    },
    async tick() {
      await mock.app.fetch(new Request('http://demo/__mock/simulator/tick', { method: 'POST' }));
    },
  };
}

/**
 * A Vertesia or Bilby mock as `npm start` mounts it, under its own prefix (`vertesia/api/v1/…`
 * is its `/api/v1/…`); each asks at a third of the Reflexio rate, as under `npm start`.
 */
function otherSystem(
  name: string,
  mock: { app: Hono; snapshot(): unknown; restore(saved: unknown): boolean },
): DemoBackend {
  return {
    name,
    prefixes: [name],
    mount: name,
    fetch: (request) => mock.app.fetch(request),
    snapshot: () => mock.snapshot(),
    restore: (saved) => mock.restore(saved),
    async tick() {
      await mock.app.fetch(new Request('http://demo/__mock/simulator/tick', { method: 'POST' }));
    },
    tickEveryMs: 60_000,
  };
}

/** The Vertesia mock of `mock/vertesia/app.ts`. */
export function vertesiaDemo(): DemoBackend {
  // Expiry is worked out whenever an ask is read: no timer to stop when the worker sleeps.
  return otherSystem('vertesia', createVertesiaMock({ latencyMs: 150 }));
}

/** The Bilby mock of `mock/bilby/app.ts`. */
export function bilbyDemo(): DemoBackend {
  // A conversation's turn (busy, or for a few seconds after an answer) is a time it runs until,
  // compared on every request: no timer to stop when the worker sleeps.
  return otherSystem('bilby', createBilbyMock({ latencyMs: 150 }));
}

/** Every mock backend of the demo; a new one is one more line here (and in RESET_PATHS). */
export function demoBackends(): DemoBackend[] {
  return [reflexioDemo(), vertesiaDemo(), bilbyDemo()];
}
