// The notifier end to end on an embedded database: questions asked of the real Reflexio mock, read
// by the real watcher, routed, grouped and sent to a real HTTP receiver that checks each Standard
// Webhooks signature. The notifier's clock is moved by the test; nothing sleeps.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMockBackend } from '../../mock/app';
import type { Db } from '../db/engine';
import { withEmbeddedDb } from '../db/test-db';
import { takeClaim } from '../team/queries';
import { soleLease } from '../watch/lease';
import { createWatcher } from '../watch/watcher';
import { DELIVERIES_PATH, deliveriesApi } from './api';
import { loadNotifyConfig, type NotifyConfig, parseNotifyConfig } from './config';
import { createNotifier, type DeliveryOutcome, RETRY } from './notifier';
import { listDeliveries } from './outbox';
import { sendersFor } from './receivers';
import {
  askReflexio,
  receiversYaml,
  reflexioSystem,
  TEST_NOTIFY_SETTINGS as settings,
  startWebhookReceiver,
  TEST_SECRET,
  type WebhookReceiver,
} from './test-receivers';

let db: Db;
withEmbeddedDb((opened) => {
  db = opened;
});

const TABLES = [
  'notify_items',
  'notify_messages',
  'notify_groups',
  'watch_sources',
  'watch_units',
  'watch_changes',
  'watched_questions',
];

const receivers: WebhookReceiver[] = [];
beforeEach(async () => {
  for (const table of TABLES) await db.query(`DELETE FROM ${table}`);
});
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

async function receiver() {
  const started = await startWebhookReceiver(TEST_SECRET);
  receivers.push(started);
  return started;
}

function config(yaml: string): NotifyConfig {
  const parsed = parseNotifyConfig(yaml, settings);
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  return parsed.config;
}

/** Every question to one signed webhook, `team`, with these lines added to its route. */
const teamRoute = (hook: WebhookReceiver, lines: string[] = []) =>
  config(
    [
      receiversYaml({ team: hook }),
      'routes:',
      '  - receiver: team',
      ...lines.map((l) => `    ${l}`),
    ].join('\n'),
  );

function setup(notifyConfig: NotifyConfig) {
  const reflexio = createMockBackend({ seed: 'empty', simulatorIntervalMs: 0 });
  const watcher = createWatcher({
    db,
    systems: [reflexioSystem(reflexio.app)],
    lease: soleLease(),
    intervalMs: 10_000,
    log: () => {},
  });
  const clock = { now: Date.now() };
  const outcomes: { receiver: string; outcome: DeliveryOutcome }[] = [];
  const notifier = createNotifier({
    db,
    config: notifyConfig,
    senders: sendersFor(notifyConfig.receivers, null),
    publicUrl: settings.publicUrl,
    leader: () => true,
    systemNames: new Map([['reflexio', 'Reflexio']]),
    clock: () => clock.now,
    random: () => 1,
    onDelivery: (receiverName, outcome) => outcomes.push({ receiver: receiverName, outcome }),
    log: () => {},
  });
  const mock = async (path: string, body: unknown = {}) => {
    const response = await reflexio.app.fetch(
      new Request(`http://mock/__mock${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { call: { id: string } };
  };
  const ask = (question: string, agent: string, expiresInSeconds?: number) =>
    askReflexio(reflexio.app, question, agent, expiresInSeconds);
  /** The watcher reads, the notifier routes and sends, as one tick of the server does. */
  const tick = async (advanceMs = 0) => {
    clock.now += advanceMs;
    await watcher.readNow();
    await notifier.routeOnce();
    await notifier.deliverOnce();
  };
  return { reflexio, watcher, notifier, clock, mock, ask, tick, outcomes };
}

const questionIds = (hook: WebhookReceiver) =>
  hook.received.flatMap((message) => message.body.data.questions.map((q) => q.id));

describe('the notifier', () => {
  it('sends a new question once, signed, with a link through PUBLIC_URL', async () => {
    const hook = await receiver();
    const s = setup(teamRoute(hook));
    const id = await s.ask('Refund order 1042?', 'billing-agent');
    await s.tick();
    await s.tick(5_000);
    await s.tick(120_000);
    expect(hook.refused).toBe(0);
    expect(hook.received).toHaveLength(1);
    const [message] = hook.received;
    expect(message?.body.type).toBe('questions.new');
    expect(message?.body.data.title).toBe('New question from billing-agent (Reflexio)');
    expect(message?.body.data.questions[0]).toMatchObject({
      id,
      asked: 'Refund order 1042?',
      url: `https://inbox.example.com/portal/questions/${id}`,
    });
    // Nothing but the question and the link: no answer field, no key.
    expect(JSON.stringify(message?.body)).not.toMatch(/answer"|api_?key|secret/i);
  });

  it('groups a burst of 200 questions from one agent into at most 3 messages in the minute', async () => {
    const hook = await receiver();
    const s = setup(teamRoute(hook));
    // 200 questions over one minute, the watcher reading every 2 s (WATCH_INTERVAL_SECONDS=2).
    const asked: string[] = [];
    for (let second = 0; second < 60; second += 2) {
      const count = second < 58 ? 6 : 200 - asked.length;
      for (let i = 0; i < count; i += 1) {
        asked.push(await s.ask(`Refund order ${asked.length}?`, 'billing-agent'));
      }
      await s.tick(second === 0 ? 0 : 2_000);
    }
    expect(asked).toHaveLength(200);
    const inTheMinute = hook.received.length;
    expect(inTheMinute).toBeGreaterThanOrEqual(1);
    expect(inTheMinute).toBeLessThanOrEqual(3);
    // The rest go in the next group message: every question once, none twice.
    await s.tick(60_000);
    expect(hook.received.length).toBeLessThanOrEqual(inTheMinute + 1);
    expect(questionIds(hook).length).toBeLessThanOrEqual(200);
    const counted = hook.received.reduce((sum, message) => sum + message.body.data.count, 0);
    expect(counted).toBe(200);
    expect(hook.received.at(-1)?.body.data.title).toMatch(/^\d+ new questions from billing-agent$/);
  }, 120_000);

  it('escalates a question with 6 minutes left at 5, to the escalation receiver only', async () => {
    const team = await receiver();
    const pager = await receiver();
    const s = setup(
      config(`
${receiversYaml({ team, pager })}
routes:
  - receiver: team
  - name: five-minutes
    receiver: pager
    escalate: { minutes_left: 5 }
`),
    );
    const id = await s.ask('Approve the wire transfer?', 'payments-agent', 6 * 60);
    await s.tick();
    expect(team.received).toHaveLength(1);
    expect(pager.received).toHaveLength(0);
    await s.tick(50_000);
    expect(pager.received).toHaveLength(0);
    await s.tick(15_000);
    expect(pager.received).toHaveLength(1);
    expect(pager.received[0]?.body.type).toBe('questions.escalation');
    expect(pager.received[0]?.body.data.title).toMatch(
      /^4 min left, unclaimed: payments-agent asks/,
    );
    expect(pager.received[0]?.body.data.questions.map((q) => q.id)).toEqual([id]);
    await s.tick(60_000);
    expect(pager.received).toHaveLength(1);
  });

  it('does not escalate a question someone claimed first', async () => {
    const pager = await receiver();
    const s = setup(
      config(`
${receiversYaml({ pager })}
routes:
  - receiver: pager
    escalate: { minutes_left: 5 }
`),
    );
    const id = await s.ask('Approve the wire transfer?', 'payments-agent', 6 * 60);
    await s.tick();
    const claim = await takeClaim(
      db,
      { sourceId: 'reflexio', questionId: id, reviewer: 'ana@example.com', reviewerName: null },
      15,
      50,
    );
    expect(claim.ok).toBe(true);
    await s.tick(65_000);
    await s.tick(60_000);
    expect(pager.received).toHaveLength(0);
  });

  it('sends nothing for a question answered before its message goes out', async () => {
    const hook = await receiver();
    const s = setup(teamRoute(hook, ['group_wait: 30s']));
    const id = await s.ask('Ship it?', 'deploy-agent');
    await s.tick();
    await s.mock(`/questions/${id}/resolve`, { answer: 'yes' });
    await s.tick(31_000);
    await s.tick(60_000);
    expect(hook.received).toHaveLength(0);
    const [row] = await listDeliveries(db, null, 10);
    expect(row?.status).toBe('dropped');
  });

  it('keeps trying a receiver that is down for 2 minutes, and it gets every message after', async () => {
    const hook = await receiver();
    const s = setup(teamRoute(hook, ['group_by: [agent]']));
    hook.down = true;
    const asked = [
      await s.ask('One?', 'agent-a'),
      await s.ask('Two?', 'agent-b'),
      await s.ask('Three?', 'agent-c'),
    ];
    await s.tick();
    for (let second = 0; second < 120; second += 5) await s.tick(5_000);
    expect(hook.turnedAway).toBeGreaterThan(3);
    expect(hook.received).toHaveLength(0);
    hook.down = false;
    for (let second = 0; second < 5 * 60; second += 10) await s.tick(10_000);
    expect(questionIds(hook).sort()).toEqual([...asked].sort());
    expect(new Set(hook.received.map((m) => m.id)).size).toBe(3);
    expect(s.outcomes.filter((o) => o.outcome === 'sent')).toHaveLength(3);
  }, 60_000);

  it('marks a message failed after its last try, for operators to see', async () => {
    const hook = await receiver();
    const s = setup(teamRoute(hook));
    hook.down = true;
    await s.ask('Anyone?', 'agent-a', 24 * 3600);
    await s.tick();
    for (let i = 0; i < RETRY.attempts + 2; i += 1) await s.tick(RETRY.maxMs);
    const [row] = await listDeliveries(db, 'failed', 10);
    expect(row).toMatchObject({ receiver: 'team', attempts: RETRY.attempts, questions: 1 });
    expect(row?.lastError).toBe('the webhook answered 503');
    expect(s.outcomes.filter((o) => o.outcome === 'failed')).toEqual([
      { receiver: 'team', outcome: 'failed' },
    ]);
    // The operator's view: a signed-in reviewer reads it; no question text, URL or secret in it.
    const api = deliveriesApi({ db, identity: { header: 'x-forwarded-email', nameHeader: null } });
    const at = (headers: Record<string, string>, query = '?status=failed') =>
      api(new Request(`http://portal${DELIVERIES_PATH}${query}`, { headers }), DELIVERIES_PATH);
    expect((await at({}))?.status).toBe(401);
    expect((await at({ 'x-forwarded-email': 'ops@example.com' }, '?status=lost'))?.status).toBe(
      400,
    );
    const answered = await at({ 'x-forwarded-email': 'ops@example.com' });
    const text = await answered?.text();
    expect(JSON.parse(text ?? '{}').deliveries).toHaveLength(1);
    expect(text).not.toMatch(/Anyone\?|127\.0\.0\.1|whsec_/);
  });

  it('sends every new question to the two-variable webhook with no file', async () => {
    const hook = await receiver();
    const loaded = loadNotifyConfig({
      ...settings,
      configFile: null,
      webhookUrl: hook.url,
      webhookSecret: TEST_SECRET,
    });
    if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
    const s = setup(loaded.config);
    await s.ask('First?', 'agent-a');
    await s.ask('Second?', 'agent-b');
    await s.tick();
    expect(questionIds(hook)).toHaveLength(2);
  });
});
