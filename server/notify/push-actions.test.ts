// Quick answers as notification actions, end to end on an embedded database: questions asked of
// the real Reflexio mock with an answer format, read by the real watcher (which keeps their quick
// answers), routed and grouped by the real notifier, and pushed through a push-service stand-in
// that decrypts each payload with the device's own keys, as the browser would.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMockBackend } from '../../mock/app';
import type { Db } from '../db/engine';
import { withEmbeddedDb } from '../db/test-db';
import { takeClaim } from '../team/queries';
import { soleLease } from '../watch/lease';
import { openQuestions } from '../watch/store';
import { createWatcher } from '../watch/watcher';
import { formatChoices } from '../watch/wire';
import { parseNotifyConfig } from './config';
import { createNotifier } from './notifier';
import { sendersFor } from './receivers';
import { claimHolders } from './service';
import { pushDevice, reflexioSystem, TEST_NOTIFY_SETTINGS } from './test-receivers';
import { saveSubscription, webPushSender } from './web-push';

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
  'push_subscriptions',
  'claims',
];
beforeEach(async () => {
  for (const table of TABLES) await db.query(`DELETE FROM ${table}`);
});

interface Pushed {
  device: string;
  payload: {
    title: string;
    count: number;
    path: string;
    question?: { source: string; id: string };
    actions?: { action: string; title: string }[];
  };
}

const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

async function setup() {
  const parsed = parseNotifyConfig(
    ['receivers:', '  - name: devices', '    webpush: {}', 'routes:', '  - receiver: devices'].join(
      '\n',
    ),
    TEST_NOTIFY_SETTINGS,
  );
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  const ana = pushDevice('https://push.example.net/send/ana');
  const bo = pushDevice('https://push.example.net/send/bo');
  await saveSubscription(db, 'ana@example.com', ana.subscription, { kind: 'all' });
  await saveSubscription(db, 'bo@example.com', bo.subscription, { kind: 'all' });
  const pushed: Pushed[] = [];
  const standIn: typeof fetch = async (input, init) => {
    const device = String(input).endsWith('/ana') ? ana : bo;
    pushed.push({
      device: String(input).endsWith('/ana') ? 'ana' : 'bo',
      payload: JSON.parse(device.decrypt(Buffer.from(init?.body as Uint8Array))),
    });
    return new Response(null, { status: 201 });
  };
  const reflexio = createMockBackend({ seed: 'empty', simulatorIntervalMs: 0 });
  const watcher = createWatcher({
    db,
    systems: [reflexioSystem(reflexio.app)],
    lease: soleLease(),
    intervalMs: 10_000,
    log: () => {},
  });
  const clock = { now: Date.now() };
  const notifier = createNotifier({
    db,
    config: parsed.config,
    senders: sendersFor(parsed.config.receivers, null, {
      devices: webPushSender({
        db,
        subject: 'https://inbox.example.com/',
        fetch: standIn,
        claimedBy: () => claimHolders(db),
      }),
    }),
    publicUrl: TEST_NOTIFY_SETTINGS.publicUrl,
    leader: () => true,
    systemNames: new Map([['reflexio', 'Reflexio']]),
    clock: () => clock.now,
    random: () => 1,
    log: () => {},
  });
  stops.push(() => notifier.stop());
  const ask = async (fields: Record<string, unknown>) => {
    const response = await reflexio.app.fetch(
      new Request('http://mock/__mock/questions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user_id: 'billing-agent', expires_in_seconds: 3600, ...fields }),
      }),
    );
    if (!response.ok) throw new Error(`ask: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { call: { id: string } }).call.id;
  };
  const tick = async (advanceMs = 0) => {
    clock.now += advanceMs;
    await watcher.readNow();
    await notifier.routeOnce();
    await notifier.deliverOnce();
  };
  return { pushed, ask, tick };
}

/** Past any group_wait and group_interval of the default route. */
const LATER = 10 * 60_000;

describe('quick answers as notification actions', () => {
  it('a single question offers its quick answers, with what the worker needs to send one', async () => {
    const s = await setup();
    const id = await s.ask({ question: 'Refund order 1042?', answer_format: 'yes/no' });
    await s.tick();
    await s.tick(LATER);
    expect(s.pushed.map((p) => p.device).sort()).toEqual(['ana', 'bo']);
    for (const { payload } of s.pushed) {
      expect(payload.count).toBe(1);
      expect(payload.path).toBe(`questions/${id}`);
      expect(payload.question).toEqual({ source: 'reflexio', id });
      expect(payload.actions).toEqual([
        { action: 'answer:0', title: 'Yes' },
        { action: 'answer:1', title: 'No' },
      ]);
    }
  });

  it('keeps at most 3 choices of at most 40 characters; free text and JSON tools get none', async () => {
    const s = await setup();
    const long = 'a choice far longer than any notification button';
    const many = await s.ask({
      question: 'Which region?',
      answer_format: `one of: eu-west, us-east, ${long}, ap-south or sa-east`,
    });
    const free = await s.ask({ question: 'Why?', answer_format: 'free text', user_id: 'other' });
    await s.tick();
    const kept = new Map(
      (await openQuestions(db)).map((question) => [question.questionId, question.choices]),
    );
    expect(kept.get(many)).toEqual(['eu-west', 'us-east', 'ap-south']);
    expect(kept.get(free)).toEqual([]);
    await s.tick(LATER);
    const byPath = new Map(s.pushed.map((p) => [p.payload.path, p.payload]));
    expect(byPath.get(`questions/${many}`)?.actions?.map((a) => a.title)).toEqual([
      'eu-west',
      'us-east',
      'ap-south',
    ]);
    const plain = byPath.get(`questions/${free}`);
    expect(plain).toBeDefined();
    expect(plain?.actions).toBeUndefined();
    expect(plain?.question).toBeUndefined();
    // Read as the drawer reads a format; a tool other than ask_human is answered in JSON.
    expect(formatChoices('Yes or No')).toEqual(['Yes', 'No']);
    expect(formatChoices('one of: "now", "after cut-off".')).toEqual(['now', 'after cut-off']);
    expect(formatChoices('a number')).toEqual([]);
  });

  it('a grouped notice ("2 new questions") offers Open only', async () => {
    const s = await setup();
    await s.ask({ question: 'Refund order 1?', answer_format: 'yes/no' });
    await s.ask({ question: 'Refund order 2?', answer_format: 'yes/no' });
    await s.tick();
    await s.tick(LATER);
    expect(s.pushed.length).toBeGreaterThan(0);
    for (const { payload } of s.pushed) {
      expect(payload.title).toBe('2 new questions from billing-agent');
      expect(payload.path).toBe('questions');
      expect(payload.actions).toBeUndefined();
      expect(payload.question).toBeUndefined();
    }
  });

  it('a question someone holds offers its answers to the holder’s devices only', async () => {
    const s = await setup();
    const id = await s.ask({ question: 'Approve the wire transfer?', answer_format: 'yes/no' });
    const claim = await takeClaim(
      db,
      { sourceId: 'reflexio', questionId: id, reviewer: 'ana@example.com', reviewerName: null },
      15,
      50,
    );
    expect(claim.ok).toBe(true);
    await s.tick();
    await s.tick(LATER);
    const byDevice = new Map(s.pushed.map((p) => [p.device, p.payload]));
    expect(byDevice.get('ana')?.actions).toHaveLength(2);
    expect(byDevice.get('bo')).toBeDefined();
    expect(byDevice.get('bo')?.actions).toBeUndefined();
  });
});
