// The audit trail's costs (issue 27): what recording adds to an action's round trip on the
// embedded engine, and how fast /portal-api/activity answers a page of 50 over 100,000 entries.
// Issue 36: how long a write of a 1 MB answer holds the event loop, /healthz under eight
// searches at once, and activity.csv's first byte and memory over the whole trail.
//   node --import tsx bench/audit.ts          (npm run bench:audit)

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { createMockBackend } from '../mock/app';
import { insertAttempts } from '../server/audit/queries';
import { createAudit } from '../server/audit/sql';
import type { AuditAttempt } from '../server/audit/types';
import { openTrail } from '../server/db/open';
import { createPortalApp } from '../server/http/portal';

const ACTIONS = Number(process.env.BENCH_ACTIONS ?? 200);
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 100_000);
const PAGES = Number(process.env.BENCH_PAGES ?? 50);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

const dir = mkdtempSync(path.join(tmpdir(), 'qi-bench-audit-'));
const { db } = await openTrail({ dataDir: dir });
const identity = { header: 'x-forwarded-email', nameHeader: null };
// The bench is one reviewer sending far more than a person would: no rate limit here.
const audit = createAudit({ db, identity, log: () => {}, writesPerMinute: 100_000 });
const mock = createMockBackend({ seed: 'empty' });
const headers = { 'x-forwarded-email': 'bench@example.com', 'content-type': 'application/json' };
const withTrail = createPortalApp({
  mock: mock.app,
  around: audit.around,
  portalApi: audit.api,
  log: () => {},
});
const without = createPortalApp({ mock: mock.app, log: () => {} });

async function roundTrips(app: typeof withTrail): Promise<number[]> {
  const ids: string[] = [];
  for (let i = 0; i < ACTIONS; i++) {
    const reply = await app.request('/__mock/questions', {
      method: 'POST',
      headers,
      body: JSON.stringify({ question: `Bench ${i}?`, expires_in_seconds: 3600 }),
    });
    ids.push(((await reply.json()) as { call: { id: string } }).call.id);
  }
  const times: number[] = [];
  for (const id of ids) {
    const started = performance.now();
    const reply = await app.request(`/api/pending_tool_calls/${id}/resolve`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ result: { answer: 'yes' } }),
    });
    await reply.arrayBuffer();
    times.push(performance.now() - started);
    if (reply.status !== 200) throw new Error(`resolve answered ${reply.status}`);
  }
  return times;
}

// Warm both paths once, then alternate so machine load falls on both alike.
await roundTrips(without);
await roundTrips(withTrail);
const plain: number[] = [];
const recorded: number[] = [];
for (let round = 0; round < 3; round++) {
  plain.push(...(await roundTrips(without)));
  recorded.push(...(await roundTrips(withTrail)));
}
const added = median(recorded) - median(plain);
console.log(`action round trip (resolve, in-process, mock upstream), ${plain.length} each:`);
console.log(`  without the trail  median ${median(plain).toFixed(2)} ms`);
console.log(
  `  with the trail     median ${median(recorded).toFixed(2)} ms  (adds ${added.toFixed(2)} ms; budget 5 ms)`,
);

// Fill to ENTRIES, 1,000 per insert, over a year, five reviewers.
const [{ count }] = (await db.query<{ count: number }>(
  'SELECT count(*)::int AS count FROM audit_entries',
)) as [{ count: number }];
const started = Date.now();
for (let done = count; done < ENTRIES; ) {
  const batch: AuditAttempt[] = [];
  for (let i = 0; i < 1000 && done < ENTRIES; i++, done++) {
    batch.push({
      requestId: `bench-${done}`,
      reviewer: `reviewer${done % 5}@example.com`,
      reviewerName: null,
      sourceId: 'reflexio',
      sourceKind: 'reflexio',
      questionId: `q-${done}`,
      action: done % 7 === 0 ? 'edit' : 'answer',
      answer: `Answer number ${done}`,
      answerMode: 'full',
      at: new Date(Date.now() - (ENTRIES - done) * 300_000),
    });
  }
  await insertAttempts(db, batch);
}
console.log(
  `\n${ENTRIES} entries in the trail (filled in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
);

async function pageTimes(query: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < PAGES; i++) {
    const t = performance.now();
    const reply = await withTrail.request(`/portal-api/activity?${query}`, { headers });
    await reply.arrayBuffer();
    times.push(performance.now() - t);
  }
  return times;
}
const first = (await (
  await withTrail.request('/portal-api/activity?limit=50', { headers })
).json()) as { nextCursor: number };
const cases: [string, string][] = [
  ['newest 50', 'limit=50'],
  ['50 by one reviewer', 'limit=50&reviewer=reviewer3%40example.com'],
  [
    '50 edits in a month',
    `limit=50&action=edit&from=${new Date(Date.now() - 30 * 86_400_000).toISOString()}`,
  ],
  ['50 from the middle (cursor)', `limit=50&cursor=${Math.floor(first.nextCursor / 2)}`],
  ['50 matching a search', 'limit=50&q=number%209999'],
];
console.log(`/portal-api/activity, ${PAGES} requests each (budget 50 ms median):`);
for (const [label, query] of cases) {
  console.log(`  ${label.padEnd(30)} median ${median(await pageTimes(query)).toFixed(2)} ms`);
}

// ---- Issue 36 ----
const random = (bytes: number) => {
  let text = '';
  while (text.length < bytes) text += Math.random().toString(36).slice(2);
  return text.slice(0, bytes);
};
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[
    Math.min(values.length - 1, Math.floor(values.length * p))
  ] as number;

// A 1 MB answer (random text: the most trigrams) to a question that does not exist, 30 times,
// with and without the trail (alternating): the round trip, and the longest the thread was held
// at a stretch (on PGlite a query holds it for as long as it runs).
async function megabyteAnswers(app: typeof withTrail) {
  // Over real sockets, so each request is a turn of the event loop of its own, as in production.
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const times: number[] = [];
  const stalls: number[] = [];
  let tick = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    stalls.push(now - tick);
    tick = now;
  }, 1);
  for (let i = 0; i < 30; i++) {
    const body = JSON.stringify({ result: { answer: random(1_000_000) } });
    await new Promise((resolve) => setTimeout(resolve, 5));
    tick = performance.now();
    const t = performance.now();
    const reply = await fetch(`${origin}/api/pending_tool_calls/missing-${i}/resolve`, {
      method: 'POST',
      headers,
      body,
    });
    await reply.arrayBuffer();
    times.push(performance.now() - t);
  }
  clearInterval(ticker);
  await new Promise((resolve) => server.close(resolve));
  return `round trip median ${median(times).toFixed(1)} ms; thread held p99 ${percentile(stalls, 0.99).toFixed(1)} ms, max ${Math.max(...stalls).toFixed(1)} ms`;
}
console.log(
  '\n1 MB answers to a missing question, 30 each (the trail keeps 4 KiB, size, SHA-256):',
);
for (let round = 0; round < 2; round++) {
  console.log(`  without the trail  ${await megabyteAnswers(without)}`);
  console.log(`  with the trail     ${await megabyteAnswers(withTrail)}`);
}

// /healthz over real sockets while eight text searches over the trail run at once, probed from
// another process (a probe on this event loop would wait for the same thread it measures).
{
  const server = serve({ fetch: withTrail.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const probe = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `for (;;) { const t = performance.now(); await (await fetch('${origin}/healthz')).arrayBuffer(); console.log(performance.now() - t); await new Promise((r) => setTimeout(r, 10)); }`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const health: number[] = [];
  probe.stdout.setEncoding('utf8');
  probe.stdout.on('data', (text: string) => {
    for (const line of text.split('\n')) if (line.trim()) health.push(Number(line));
  });
  while (health.length < 5) await new Promise((resolve) => setTimeout(resolve, 20));
  const calm = health.length;
  const statuses = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      fetch(`${origin}/portal-api/activity?limit=200&q=number%20${i}`, { headers }).then(
        async (reply) => {
          await reply.arrayBuffer();
          return reply.status;
        },
      ),
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, 50));
  probe.kill();
  const during = health.slice(calm);
  console.log(
    `\n/healthz from another process during 8 searches at once (${statuses.filter((s) => s === 200).length} answered, ${statuses.filter((s) => s === 503).length} busy): ${during.length} probes, median ${median(during).toFixed(1)} ms, max ${Math.max(...during).toFixed(1)} ms (budget 200 ms)`,
  );

  // activity.csv over the whole trail: time to the first byte, the whole, and memory.
  const before = process.memoryUsage().rss;
  let peak = before;
  const t = performance.now();
  const reply = await fetch(`${origin}/portal-api/activity.csv`, { headers });
  const reader = reply.body?.getReader();
  let firstByte = 0;
  let bytes = 0;
  for (;;) {
    const chunk = await reader?.read();
    if (!chunk || chunk.done) break;
    if (firstByte === 0) firstByte = performance.now() - t;
    bytes += chunk.value.byteLength;
    peak = Math.max(peak, process.memoryUsage().rss);
  }
  console.log(
    `activity.csv: ${(bytes / 1_048_576).toFixed(1)} MB, first byte ${firstByte.toFixed(0)} ms, whole ${((performance.now() - t) / 1000).toFixed(1)} s, RSS +${((peak - before) / 1_048_576).toFixed(0)} MB at most`,
  );
  await new Promise((resolve) => server.close(resolve));
}

mock.close();
await db.close();
rmSync(dir, { recursive: true, force: true });
