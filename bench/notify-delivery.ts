// Notifications end to end, in real time (issue 38): a question asked of the Reflexio mock, read by
// the real watcher at WATCH_INTERVAL_SECONDS (10 s, the default), routed and sent by the notifier
// the server runs (server/notify/service.ts, as start.ts builds it) on an embedded database, until
// each receiver has it:
//   - a signed webhook (NOTIFY_WEBHOOK_URL + NOTIFY_WEBHOOK_SECRET) to an HTTP receiver that checks
//     the Standard Webhooks signature with the library's own verifier;
//   - email (SMTP_URL + NOTIFY_EMAIL_TO) to an SMTP server (smtp-server), each mail parsed
//     (mailparser);
//   - Web Push to the `devices` receiver the server offers without a file, one device registered
//     with choice "all", whose endpoint is a push-service stand-in on loopback that decrypts the
//     payload with the device's own keys (RFC 8291).
// Each run asks one question at a random moment of the watcher's cycle and times, per receiver, the
// ask → the moment the receiver has verified, parsed or decrypted it. The moments are drawn one in
// each tenth of the cycle, in a shuffled order (stratified): ten moments drawn freely can bunch
// (two runs of the first version gave medians of 3.4 s and 7.9 s), and the median of ten then says
// more about the draw than about the server. One unmeasured run comes first (the first mail
// connection, cold code).
// Separate from bench/notify.ts: that one moves the notifier's clock and takes seconds; this one
// waits on the real watcher's timer and takes about two minutes at 10 s.
//   node --import tsx bench/notify-delivery.ts        (npm run bench:notify-delivery)
//   BENCH_WATCH_SECONDS=2 BENCH_RUNS=3 …               (quicker while developing; the figure is at 10 s)
// Budget: the notifyDelivery* entries of `notifyBudgets` in bench/budgets.json (watch interval
// + 2 s, median of 10). Exits 1 when over it with --strict.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { createMockBackend } from '../mock/app.ts';
import { openEmbedded } from '../server/db/engine.ts';
import { migrate } from '../server/db/migrations.ts';
import { loadNotifyConfig, offerDevices } from '../server/notify/config.ts';
import type { DeliveryOutcome } from '../server/notify/notifier.ts';
import { createNotifications } from '../server/notify/service.ts';
import {
  askReflexio,
  pushDevice,
  startWebhookReceiver,
  TEST_SECRET,
} from '../server/notify/test-receivers.ts';
import { saveSubscription, vapidKeys } from '../server/notify/web-push.ts';
import { createWatching } from '../server/watch/watching.ts';
import { notifyBudgets } from './bundle-size.ts';
import { budgetsTable, type Figure, judgeAll, stat } from './report.ts';

const INTERVAL_SECONDS = Number(process.env.BENCH_WATCH_SECONDS ?? 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const intervalMs = INTERVAL_SECONDS * 1000;
/** A run gives up on a receiver after this long: it counts as never delivered. */
const GIVE_UP_MS = 3 * intervalMs + 30_000;
const strict = process.argv.includes('--strict');

const RECEIVERS = ['webhook', 'email', 'push'] as const;
type ReceiverName = (typeof RECEIVERS)[number];
const FIGURE_IDS: Record<ReceiverName, string> = {
  webhook: 'notifyDeliveryWebhook',
  email: 'notifyDeliveryEmail',
  push: 'notifyDeliveryPush',
};
const LABELS: Record<ReceiverName, string> = {
  webhook: 'new question upstream → signed webhook verified',
  email: 'new question upstream → mail parsed at the SMTP server',
  push: 'new question upstream → push payload decrypted by the device',
};

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const loadAtStart = load();

// When each receiver had each question: question id → receiver → performance.now().
const arrivals = new Map<string, Partial<Record<ReceiverName, number>>>();
let onArrival: () => void = () => {};
const problems: string[] = [];
function arrived(receiver: ReceiverName, questionIds: string[]) {
  const at = performance.now();
  for (const id of questionIds) {
    const seen = arrivals.get(id) ?? {};
    seen[receiver] ??= at;
    arrivals.set(id, seen);
  }
  onArrival();
}

// The three receivers.
const hook = await startWebhookReceiver(TEST_SECRET, (received) =>
  arrived(
    'webhook',
    received.body.data.questions.map((q) => q.id),
  ),
);
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _session, callback) {
    simpleParser(stream)
      .then((mail) => {
        const text = mail.text ?? '';
        arrived(
          'email',
          [...arrivals.keys()].filter((id) => text.includes(`questions/${encodeURIComponent(id)}`)),
        );
        callback();
      })
      .catch((error: unknown) => {
        problems.push(`a mail could not be parsed: ${String(error)}`);
        callback(error as Error);
      });
  },
});
await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
const smtpPort = (smtp.server.address() as AddressInfo).port;

// The push service stand-in: a real HTTP server the web-push sender reaches with the server's own
// fetch (no injected one). Browsers' push services are https; the portal's push API refuses
// anything else from a browser, so the device is registered here directly, as the API would store
// it, with an http endpoint on loopback.
const pushService = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    try {
      const payload = JSON.parse(device.decrypt(Buffer.concat(chunks))) as { path: string };
      const id = decodeURIComponent(payload.path.replace(/^questions\/?/, ''));
      arrived('push', id ? [id] : []);
      response.writeHead(201).end();
    } catch (error) {
      problems.push(`a push message could not be decrypted: ${String(error)}`);
      response.writeHead(400).end();
    }
  });
});
await new Promise<void>((resolve) => pushService.listen(0, '127.0.0.1', resolve));
const pushPort = (pushService.address() as AddressInfo).port;
const device = pushDevice(`http://127.0.0.1:${pushPort}/push/bench-device`);

// The server's parts, put together as server/start.ts does with these variables set:
// NOTIFY_WEBHOOK_URL, NOTIFY_WEBHOOK_SECRET, SMTP_URL, NOTIFY_EMAIL_TO, PUBLIC_URL, no NOTIFY_CONFIG.
const db = await openEmbedded(null);
await migrate(db);
const notifySettings = {
  configFile: null,
  webhookUrl: hook.url,
  webhookSecret: TEST_SECRET,
  smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
  emailTo: ['reviewers@example.com'],
  publicUrl: 'https://inbox.example.com/',
};
const loaded = loadNotifyConfig(notifySettings);
if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
const config = offerDevices(loaded.config, notifySettings);
// The device turned "Also when the inbox is closed" on: the push API hands out the VAPID key first.
await vapidKeys(db);
await saveSubscription(db, 'ana@example.com', device.subscription, { kind: 'all' });

const reflexio = createMockBackend({ seed: 'empty', simulatorIntervalMs: 0, latencyMs: 0 });
const watching = createWatching({
  db,
  databaseUrl: null,
  systems: [{ id: 'reflexio', kind: 'reflexio', name: 'Reflexio', mock: reflexio.app }],
  intervalMs,
  send: () => {},
});
const outcomes = new Map<string, number>();
const notifications = createNotifications({
  db,
  config,
  smtpUrl: notifySettings.smtpUrl,
  publicUrl: notifySettings.publicUrl,
  identity: { header: null, nameHeader: null },
  leader: () => watching.watching(),
  systemNames: new Map([['reflexio', 'Reflexio']]),
  onDelivery: (receiver: string, outcome: DeliveryOutcome) => {
    const key = `${receiver} ${outcome}`;
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  },
});
await watching.start();
notifications.start();

const receiverNames = config.receivers.map((r) => `${r.name} (${r.kind})`).join(', ');
console.log(
  `Watching the Reflexio mock every ${INTERVAL_SECONDS} s; receivers ${receiverNames}; ${RUNS} runs after one unmeasured; load average ${loadAtStart}`,
);

interface Run {
  phaseMs: number | null;
  ms: Partial<Record<ReceiverName, number>>;
}

/** Waits until `phaseMs` after the end of one of the watcher's reads. */
async function atPhase(phaseMs: number): Promise<void> {
  let readAt = watching.systems()[0]?.readAt ?? null;
  while (readAt === null) {
    await sleep(50);
    readAt = watching.systems()[0]?.readAt ?? null;
  }
  let target = readAt + phaseMs;
  while (target < Date.now()) target += intervalMs;
  await sleep(target - Date.now());
}

/** One question: asked `atMs` into the watcher's cycle, timed until each receiver has it. */
async function run(index: number, atMs: number): Promise<Run> {
  await atPhase(atMs);
  // Each run's question comes from an agent of its own. The default routes group by system and
  // agent with group_wait 0 and group_interval 1 min: a group's first question goes at once, a
  // second one within the minute waits for the interval. A new agent per run makes every question
  // the first of its group, so the figure is the first message's latency a reviewer sees, not a
  // grouping wait (which is the burst figure's business, bench/notify.ts).
  const agent = `bench-agent-${index}`;
  const readAt = watching.systems()[0]?.readAt ?? null;
  const askedAt = performance.now();
  const phaseMs = readAt === null ? null : Date.now() - readAt;
  const id = await askReflexio(
    reflexio.app,
    `Delivery run ${index}: refund order ${index}?`,
    agent,
  );
  arrivals.set(id, arrivals.get(id) ?? {});
  const all = () => RECEIVERS.every((receiver) => arrivals.get(id)?.[receiver] !== undefined);
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, GIVE_UP_MS);
    onArrival = () => {
      if (!all()) return;
      clearTimeout(timer);
      resolve();
    };
    onArrival();
  });
  onArrival = () => {};
  const seen = arrivals.get(id) ?? {};
  const ms: Run['ms'] = {};
  for (const receiver of RECEIVERS) {
    const at = seen[receiver];
    if (at !== undefined) ms[receiver] = at - askedAt;
  }
  return { phaseMs, ms };
}

await run(0, Math.random() * intervalMs);
// One moment in each tenth (each 1/RUNS) of the cycle, in a random order.
const phases = Array.from({ length: RUNS }, (_, i) => ((i + Math.random()) * intervalMs) / RUNS);
for (let i = phases.length - 1; i > 0; i -= 1) {
  const j = Math.floor(Math.random() * (i + 1));
  [phases[i], phases[j]] = [phases[j] as number, phases[i] as number];
}
const runs: Run[] = [];
console.log('\nrun  asked, s after the last read  webhook ms  email ms  push ms');
for (let index = 1; index <= RUNS; index += 1) {
  const result = await run(index, phases[index - 1] as number);
  runs.push(result);
  const cell = (receiver: ReceiverName) =>
    (result.ms[receiver] === undefined ? 'never' : result.ms[receiver].toFixed(0)).padStart(
      receiver === 'webhook' ? 10 : receiver === 'email' ? 8 : 7,
    );
  console.log(
    `${String(index).padStart(3)}  ${(result.phaseMs === null ? '–' : (result.phaseMs / 1000).toFixed(1)).padStart(27)}  ${cell('webhook')}  ${cell('email')}  ${cell('push')}`,
  );
}
const loadAtEnd = load();

await notifications.close();
await watching.close();
reflexio.close();
await hook.close();
await new Promise<void>((resolve) => smtp.close(() => resolve()));
await new Promise<void>((resolve) => pushService.close(() => resolve()));
await db.close();

const figures: Figure[] = RECEIVERS.map((receiver) => {
  const values = runs.map((r) => r.ms[receiver]);
  const missing = values.filter((value) => value === undefined).length;
  return {
    id: FIGURE_IDS[receiver],
    label: LABELS[receiver],
    unit: 'ms',
    // A question a receiver never had fails the figure, whatever the others' median.
    portal: missing > 0 ? null : stat(values),
    floor: null,
    note:
      missing > 0
        ? `${missing} of ${RUNS} never arrived within ${GIVE_UP_MS / 1000} s`
        : `median of ${RUNS}`,
  };
});
const budgets = notifyBudgets.filter((budget) => budget.id.startsWith('notifyDelivery'));
const verdicts = judgeAll(figures, budgets);
console.log(`\n${budgetsTable(verdicts)}`);
console.log('');
for (const figure of figures) {
  const s = figure.portal;
  console.log(
    `${figure.label}: ${s ? `median ${s.median.toFixed(0)} ms (${s.min.toFixed(0)}–${s.max.toFixed(0)})` : figure.note}`,
  );
}
console.log(
  `Deliveries: ${[...outcomes].map(([key, count]) => `${key} ${count}`).join(', ') || 'none'}; webhook requests refused ${hook.refused}`,
);
for (const problem of problems) console.log(`Problem: ${problem}`);
if (INTERVAL_SECONDS !== 10) {
  console.log(
    `Note: BENCH_WATCH_SECONDS=${INTERVAL_SECONDS}; the budgets are for the default 10 s, so these verdicts are only indicative.`,
  );
}
console.log(`Load average (1, 5, 15 min): ${loadAtStart} at the start, ${loadAtEnd} at the end.`);
const failed = verdicts.some((verdict) => verdict.status === 'FAIL') || problems.length > 0;
process.exit(strict && failed ? 1 : 0);
