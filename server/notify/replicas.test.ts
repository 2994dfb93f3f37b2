// Two replicas on one real PostgreSQL, each with its own pool, watcher and notifier: the one that
// holds the watcher's advisory lease routes, both send. The watching one dies mid-burst holding
// messages it had claimed and not sent; the other takes the lease, routes the rest and sends the
// dead one's messages once their lease runs out. Every question reaches each receiver once.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockBackend } from '../../mock/app';
import { type Db, openPostgres } from '../db/engine';
import { migrate } from '../db/migrations';
import { postgresAvailable, startTestPostgres, type TestPostgres } from '../db/test-postgres';
import { advisoryLease, postgresLeaseConnection } from '../watch/lease';
import { createWatcher, type Watcher } from '../watch/watcher';
import { parseNotifyConfig } from './config';
import { createNotifier, RETRY } from './notifier';
import { claimDue } from './outbox';
import { sendersFor } from './receivers';
import {
  askReflexio,
  receiversYaml,
  reflexioSystem,
  startWebhookReceiver,
  TEST_NOTIFY_SETTINGS,
  TEST_SECRET,
  type WebhookReceiver,
} from './test-receivers';

let server: TestPostgres;
const dbs: Db[] = [];
const watchers: Watcher[] = [];
const hooks: WebhookReceiver[] = [];

beforeAll(async () => {
  if (postgresAvailable()) server = await startTestPostgres();
}, 120_000);
afterEach(async () => {
  for (const watcher of watchers.splice(0)) await watcher.stop();
  for (const db of dbs.splice(0)) await db.close().catch(() => {});
  for (const hook of hooks.splice(0)) await hook.close();
});
afterAll(async () => {
  await server?.stop();
});

describe.skipIf(!postgresAvailable())('notifications on two replicas', () => {
  it('notify every question exactly once per receiver when the watching one dies mid-burst', async () => {
    const url = await server.createDatabase();
    const team = await startWebhookReceiver(TEST_SECRET);
    const oncall = await startWebhookReceiver(TEST_SECRET);
    hooks.push(team, oncall);
    const parsed = parseNotifyConfig(
      `
${receiversYaml({ team, oncall })}
routes:
  - receiver: [team, oncall]
    group_by: [agent]
    group_interval: 0s
`,
      TEST_NOTIFY_SETTINGS,
    );
    if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
    const reflexio = createMockBackend({ seed: 'empty', simulatorIntervalMs: 0 });
    const clock = { now: Date.now() };

    const replica = async () => {
      const db = await openPostgres(url);
      dbs.push(db);
      await migrate(db);
      const watcher = createWatcher({
        db,
        systems: [reflexioSystem(reflexio.app)],
        lease: advisoryLease(() => postgresLeaseConnection(url), { log: () => {} }),
        intervalMs: 10_000,
        log: () => {},
      });
      watchers.push(watcher);
      const notifier = createNotifier({
        db,
        config: parsed.config,
        senders: sendersFor(parsed.config.receivers, null),
        publicUrl: null,
        leader: () => watcher.watching(),
        clock: () => clock.now,
        random: () => 1,
        log: () => {},
      });
      const route = async () => {
        await watcher.readNow();
        if (watcher.watching()) await notifier.routeOnce();
      };
      return { db, watcher, notifier, route };
    };
    const a = await replica();
    const b = await replica();

    const asked: string[] = [];
    const wave = async (n: number) => {
      for (let i = 0; i < n; i += 1) {
        asked.push(
          await askReflexio(reflexio.app, `Question ${asked.length}?`, `agent-${asked.length % 4}`),
        );
      }
    };

    // A reads first and holds the lease; both send.
    await a.route();
    expect(a.watcher.watching()).toBe(true);
    await b.route();
    expect(b.watcher.watching()).toBe(false);
    for (let step = 0; step < 3; step += 1) {
      await wave(10);
      clock.now += 2_000;
      await Promise.all([a.route(), b.route()]);
      await Promise.all([a.notifier.deliverOnce(), b.notifier.deliverOnce()]);
    }
    // The next wave: A routes it, claims its messages and dies before sending them.
    await wave(10);
    clock.now += 2_000;
    await a.route();
    const held = await claimDue(a.db, clock.now, RETRY.leaseMs, 100);
    expect(held.length).toBeGreaterThan(0);
    await a.watcher.stop();
    await a.db.close();
    dbs.splice(dbs.indexOf(a.db), 1);

    // B takes the lease, routes the rest of the burst; A's claimed messages wait out their lease.
    for (let step = 0; step < 3; step += 1) {
      await wave(10);
      clock.now += 2_000;
      await b.route();
      await b.notifier.deliverOnce();
    }
    expect(b.watcher.watching()).toBe(true);
    clock.now += RETRY.leaseMs;
    await b.route();
    await b.notifier.deliverOnce();

    for (const hook of [team, oncall]) {
      expect(hook.refused).toBe(0);
      const ids = hook.received.flatMap((m) => m.body.data.questions.map((q) => q.id));
      expect(ids.sort()).toEqual([...asked].sort());
      expect(new Set(hook.received.map((m) => m.id)).size).toBe(hook.received.length);
    }
    expect(asked).toHaveLength(70);
    reflexio.close();
  }, 120_000);
});
