// Notifications (issue 38) on the embedded engine: one routing pass over 10,000 pending questions
// and 50 routes (the short pass that runs between the once-a-minute full reads, and the full read),
// and a burst of 200 questions in one minute from one agent with the default grouping: messages
// per receiver in that minute. The notifier's clock is moved by the bench; nothing is sent out.
//   node --import tsx bench/notify.ts        (npm run bench:notify)
// Budget: `notifyBudgets` in bench/budgets.json (but the notifyDelivery* ones, which
// bench/notify-delivery.ts measures). Exits 1 when over it with --strict.
import { openEmbedded } from '../server/db/engine';
import { migrate } from '../server/db/migrations';
import { loadNotifyConfig, parseNotifyConfig } from '../server/notify/config';
import { createNotifier } from '../server/notify/notifier';
import { notifyBudgets } from './bundle-size.ts';
import { budgetsTable, type Figure, judgeAll, stat } from './report.ts';

const PENDING = Number(process.env.BENCH_PENDING ?? 10_000);
const ROUTES = 50;
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const strict = process.argv.includes('--strict');
const settings = {
  configFile: 'bench',
  webhookUrl: null,
  webhookSecret: null,
  smtpUrl: null,
  emailTo: [],
  publicUrl: 'https://inbox.example.com/',
};

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function routingPass(): Promise<{ short: number[]; full: number[] }> {
  const db = await openEmbedded(null);
  await migrate(db);
  await db.query(
    `INSERT INTO watched_questions
       (source_id, question_id, kind, unit_id, asked, agent, tool, tags, expires_at, status, first_seen)
     SELECT 'reflexio', 'q' || i, 'reflexio', 'q' || i, 'Question ' || i || repeat(' text', 40),
            'agent-' || (i % 40), 'tool-' || (i % 7), jsonb_build_array('tag-' || (i % 50)),
            now() + (i % 120) * interval '1 minute', 'pending', now() - interval '1 hour'
       FROM generate_series(1, $1::int) i`,
    [PENDING],
  );
  // 50 routes: by tag, one in five also by time left, one in ten an escalation.
  const routes = Array.from({ length: ROUTES }, (_, i) =>
    [
      `  - name: r${i}`,
      '    receiver: team',
      `    match: { tag: tag-${i}${i % 5 === 0 ? ', minutes_left: 30' : ''} }`,
      ...(i % 10 === 0 ? ['    escalate: { minutes_left: 5 }'] : []),
    ].join('\n'),
  );
  const parsed = parseNotifyConfig(
    `receivers:\n  - name: team\n    slack: { url: "http://127.0.0.1:9/x" }\nroutes:\n${routes.join('\n')}\n`,
    settings,
  );
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  const clock = { now: Date.now() };
  const notifier = createNotifier({
    db,
    config: parsed.config,
    senders: new Map(),
    publicUrl: null,
    leader: () => true,
    clock: () => clock.now,
    log: () => {},
  });
  await notifier.routeOnce(); // the first pass writes what is owed: not the steady state
  const short: number[] = [];
  const full: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    clock.now += 2_000;
    short.push(await timed(() => notifier.routeOnce()));
  }
  for (let run = 0; run < Math.ceil(RUNS / 2); run += 1) {
    clock.now += 61_000;
    full.push(await timed(() => notifier.routeOnce()));
  }
  await db.close();
  return { short, full };
}

/** 200 questions in one minute from one agent, read every 2 s; messages to the receiver in it. */
async function burst(): Promise<number> {
  const db = await openEmbedded(null);
  await migrate(db);
  const loaded = loadNotifyConfig({
    ...settings,
    configFile: null,
    webhookUrl: 'http://127.0.0.1:9/hook',
    webhookSecret: `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`,
  });
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  let messages = 0;
  const clock = { now: Date.now() };
  const notifier = createNotifier({
    db,
    config: loaded.config,
    senders: new Map([
      [
        'env-webhook',
        async () => {
          messages += 1;
        },
      ],
    ]),
    publicUrl: null,
    leader: () => true,
    clock: () => clock.now,
    log: () => {},
  });
  let asked = 0;
  for (let second = 0; second < 60; second += 2) {
    const count = second < 58 ? 6 : 200 - asked;
    await db.query(
      `INSERT INTO watched_questions
         (source_id, question_id, kind, unit_id, asked, user_id, tags, expires_at, status)
       SELECT 'reflexio', 'b' || i, 'reflexio', 'b' || i, 'Refund ' || i, 'billing-agent', '[]',
              now() + interval '1 hour', 'pending'
         FROM generate_series($1::int, $2::int) i`,
      [asked, asked + count - 1],
    );
    asked += count;
    await notifier.routeOnce();
    await notifier.deliverOnce();
    clock.now += 2_000;
  }
  await db.close();
  return messages;
}

const pass = await routingPass();
const messages = await burst();
const figures: Figure[] = [
  {
    id: 'notifyRoutingPass',
    label: `routing pass, ${PENDING.toLocaleString('en-US')} pending, ${ROUTES} routes (embedded)`,
    unit: 'ms',
    portal: stat(pass.short),
    floor: null,
    note: `the full read, once a minute: median ${stat(pass.full)?.median.toFixed(0)} ms`,
  },
  {
    id: 'notifyBurstMessages',
    label: 'burst of 200 in a minute from one agent: messages to the receiver',
    unit: 'requests',
    portal: stat([messages]),
    floor: null,
  },
];
// The notifyDelivery* budgets are bench/notify-delivery.ts's (real time, about two minutes).
const verdicts = judgeAll(
  figures,
  notifyBudgets.filter((budget) => !budget.id.startsWith('notifyDelivery')),
);
console.log(budgetsTable(verdicts));
console.log(
  `\nThe full read of every open question (once a minute): median ${stat(pass.full)?.median.toFixed(0)} ms.`,
);
if (strict && verdicts.some((verdict) => verdict.status === 'FAIL')) process.exit(1);
