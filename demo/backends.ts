import { z } from 'zod';
import { createMockBackend } from '../mock/app';

/** One mock backend as the demo's Service Worker runs it. */
export interface DemoBackend {
  /** Where its state is kept in IndexedDB. */
  name: string;
  /** First path segments it answers, relative to the demo's root (`api` answers `api/…`). */
  prefixes: readonly string[];
  /** A request whose path is the backend's own (`/api/…`), as the mock's Hono app expects. */
  fetch(request: Request): Response | Promise<Response>;
  snapshot(): unknown;
  /** False when `saved` is not a snapshot it can take (then it keeps its seed data). */
  restore(saved: unknown): boolean;
  /** The agent simulator asks one question; absent when the backend has no simulator. */
  tick?(): Promise<void>;
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

/** Every mock backend of the demo; a new one (Vertesia, Bilby) is one more line here. */
export function demoBackends(): DemoBackend[] {
  return [reflexioDemo()];
}
