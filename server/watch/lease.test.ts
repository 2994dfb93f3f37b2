// One watcher across replicas: two watchers on one real PostgreSQL, each with its own lease
// connection. Exactly one reads the systems; when its session dies (a process killed), the other
// takes over at its next interval, and a question that arrived meanwhile is told of once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockBackend } from '../../mock/app';
import { type Db, openPostgres } from '../db/engine';
import { migrate } from '../db/migrations';
import { postgresAvailable, startTestPostgres, type TestPostgres } from '../db/test-postgres';
import { advisoryLease, type LeaseConnection, postgresLeaseConnection } from './lease';
import type { AppliedChange } from './store';
import { createWatcher } from './watcher';

const skip = !postgresAvailable();
let server: TestPostgres | null = null;
let url = '';
let db: Db;

beforeAll(async () => {
  if (skip) return;
  server = await startTestPostgres();
  url = await server.createDatabase();
  db = await openPostgres(url);
  await migrate(db);
}, 60_000);
afterAll(async () => {
  await db?.close();
  await server?.stop();
});

describe.skipIf(skip)('the watcher lease on PostgreSQL', () => {
  it('lets one replica watch, and another take over when its session dies', async () => {
    const mock = createMockBackend({ seed: 'empty', simulatorIntervalMs: 0 });
    const asked = { a: 0, b: 0 };
    const fetchAs = (who: 'a' | 'b') => async (path: string) => {
      asked[who] += 1;
      return mock.app.fetch(new Request(`http://mock${path}`));
    };
    const connections: LeaseConnection[] = [];
    const replica = (who: 'a' | 'b') => {
      const lease = advisoryLease(
        async () => {
          const connection = await postgresLeaseConnection(url);
          if (who === 'a') connections.push(connection);
          return connection;
        },
        { log: () => {} },
      );
      const watcher = createWatcher({
        db,
        lease,
        intervalMs: 60_000,
        systems: [{ id: 'reflexio', kind: 'reflexio', name: 'Reflexio', fetch: fetchAs(who) }],
        log: () => {},
      });
      const heard: AppliedChange[] = [];
      watcher.onChange((change) => heard.push(change));
      return { watcher, heard };
    };
    const a = replica('a');
    const b = replica('b');
    const ask = async (question: string) => {
      const response = await mock.app.fetch(
        new Request('http://mock/__mock/questions', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ question }),
        }),
      );
      return ((await response.json()) as { call: { id: string } }).call.id;
    };
    try {
      const first = await ask('Before anyone watched?');
      await a.watcher.readNow();
      await b.watcher.readNow();
      await a.watcher.readNow();
      await b.watcher.readNow();
      expect(a.watcher.watching()).toBe(true);
      expect(b.watcher.watching()).toBe(false);
      expect(asked).toEqual({ a: 2, b: 0 });
      expect(a.heard.flatMap((c) => c.opened.map((q) => q.questionId))).toEqual([first]);

      // Replica a's process dies: its session ends with it (no unlock, no goodbye).
      const gone = connections.at(-1) as LeaseConnection;
      await gone.query('SELECT pg_terminate_backend(pg_backend_pid())').catch(() => {});
      const second = await ask('Asked while nobody watched?');
      await expect
        .poll(
          async () => {
            await b.watcher.readNow();
            return b.watcher.watching();
          },
          { timeout: 10_000, interval: 100 },
        )
        .toBe(true);
      expect(asked.b).toBe(1);
      const opened = [...a.heard, ...b.heard].flatMap((c) => c.opened.map((q) => q.questionId));
      expect(opened).toEqual([first, second]);
    } finally {
      await a.watcher.stop();
      await b.watcher.stop();
      mock.close();
    }
  });
});
