// The watcher's costs and speed (issue 37), on a portal server of its own as `npm run serve` runs
// one (start.ts --production, WATCH_INTERVAL_SECONDS=2, on a PostgreSQL started for the run where
// there is one, else embedded) reaching the three mocks, served by this process, with keys:
//   - upstream list requests a minute with 1, 10 and 100 open inboxes: each inbox an HTTP client
//     that behaves as the page does (one read of each list through the portal, then the team's
//     event stream); counted at the mocks (every GET of their API: the watcher's reads and any
//     browser read the copy did not answer). Flat: systems × list pages × 60 / interval, however
//     many inboxes.
//   - a new question (asked through the mock's control route) → the message naming it on every
//     listening inbox's stream (median of 10, and the slowest of the 100 inboxes).
//   - 10,000 pending questions (500 Reflexio, 9,000 Vertesia, 500 Bilby): the server's RSS and its
//     CPU time per watch cycle (the whole process's, over BENCH_WINDOW_SECONDS; the mocks are not
//     in it, the embedded database is when there is no PostgreSQL).
//   node --import tsx bench/watch.ts [--strict]        (npm run bench:watch)
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createMockBackend } from '../mock/app.ts';
import { createBilbyMock } from '../mock/bilby/app.ts';
import { BILBY_ORGANIZATION_ID } from '../mock/bilby/seed.ts';
import { createVertesiaMock } from '../mock/vertesia/app.ts';
import { freePort, startPortalProcess } from '../scripts/portal-process.ts';
import { postgresAvailable, startTestPostgres } from '../server/db/test-postgres.ts';
import { watchBudgets } from './bundle-size.ts';
import { budgetsTable, type Figure, judgeAll, stat, type Verdict } from './report.ts';
import { pendingQuestion } from './seed.ts';

const INTERVAL_SECONDS = 2;
const WINDOW_SECONDS = Number(process.env.BENCH_WINDOW_SECONDS ?? 30);
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const SYSTEMS = ['reflexio', 'vertesia', 'bilby'] as const;
const METRICS_TOKEN = 'bench-watch-metrics-token';
const strict = process.argv.includes('--strict');
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

if (!existsSync(path.join(root, 'dist', 'index.html'))) {
  console.log('Building the portal (dist/ is missing)…');
  const { build } = await import('vite');
  await build({ root, logLevel: 'warn' });
}

const quick = { seed: 'empty' as const, simulatorIntervalMs: 0, latencyMs: 0 };
const mockApps = {
  reflexio: createMockBackend(quick),
  vertesia: createVertesiaMock(quick),
  bilby: createBilbyMock(quick),
};
/** GET requests each mock's API answered (its control routes not counted). */
const asked = { reflexio: 0, vertesia: 0, bilby: 0 };
const mockUrls = {} as Record<keyof typeof mockApps, string>;
const mockServers: ReturnType<typeof serve>[] = [];
for (const system of SYSTEMS) {
  const app = mockApps[system].app;
  const listening = serve({
    fetch: (request: Request) => {
      if (request.method === 'GET' && new URL(request.url).pathname.startsWith('/api/')) {
        asked[system] += 1;
      }
      return app.fetch(request);
    },
    port: 0,
    hostname: '127.0.0.1',
  });
  await new Promise((resolve) => listening.once('listening', resolve));
  mockServers.push(listening);
  mockUrls[system] = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
}
const upstreamGets = () => asked.reflexio + asked.vertesia + asked.bilby;

const postgres = postgresAvailable() ? await startTestPostgres() : null;
const engine = postgres ? 'PostgreSQL' : 'embedded (PGlite: its memory is in the RSS)';
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'qi-bench-watch-'));
const server = await startPortalProcess({
  ...process.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  ...(postgres ? { DATABASE_URL: await postgres.createDatabase() } : { DATA_DIR: dataDir }),
  REVIEWER_HEADER: 'X-Forwarded-Email',
  REFLEXIO_URL: mockUrls.reflexio,
  REFLEXIO_API_KEY: 'bench-watch-key',
  VERTESIA_URL: mockUrls.vertesia,
  VERTESIA_API_KEY: 'bench-watch-key',
  BILBY_URL: mockUrls.bilby,
  BILBY_API_KEY: 'bench-watch-key',
  BILBY_ORGANIZATION_ID,
  WATCH_INTERVAL_SECONDS: String(INTERVAL_SECONDS),
  METRICS_TOKEN,
});

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A mock's control route, as an agent asks. */
async function post(system: keyof typeof mockApps, route: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${mockUrls[system]}/__mock/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`POST ${system} ${route}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function metrics(): Promise<string> {
  const reply = await fetch(`${origin}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  return reply.text();
}

async function pendingTotal(): Promise<number> {
  let total = 0;
  for (const match of (await metrics()).matchAll(/^qi_questions_pending\{[^}]*\} (\d+)$/gm)) {
    total += Number(match[1]);
  }
  return total;
}

interface Inbox {
  /** Resolves when a `questions` message naming `id` arrives: ms since `since`. */
  heard(id: string, since: number): Promise<number>;
  close(): void;
}

/** An open inbox as the page is one: reads each list once through the portal, then listens. */
async function openInbox(index: number): Promise<Inbox> {
  const headers = { 'x-forwarded-email': `bench-reviewer-${index}@example.com` };
  for (const list of [
    'api/pending_tool_calls?limit=500',
    'vertesia/api/v1/pending-asks',
    `bilby/api/v1/conversations?organizationId=${BILBY_ORGANIZATION_ID}`,
  ]) {
    const reply = await fetch(`${origin}/${list}`, { headers });
    await reply.arrayBuffer();
  }
  const abort = new AbortController();
  const reply = await fetch(`${origin}/portal-api/team/events`, { headers, signal: abort.signal });
  if (!reply.ok || !reply.body) throw new Error(`inbox ${index}: stream ${reply.status}`);
  const waiters = new Map<string, { since: number; resolve: (ms: number) => void }>();
  const seen = new Map<string, number>();
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of reply.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (frame.includes('event: questions')) {
            const at = performance.now();
            for (const [id, waiter] of waiters) {
              if (frame.includes(id)) {
                waiters.delete(id);
                waiter.resolve(at - waiter.since);
              }
            }
            for (const match of frame.matchAll(/"id":"([^"]+)"/g)) {
              if (!seen.has(match[1] as string)) seen.set(match[1] as string, at);
            }
          }
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // Closed by the bench.
    }
  })();
  return {
    heard(id, since) {
      const at = seen.get(id);
      if (at !== undefined) return Promise.resolve(at - since);
      return new Promise((resolve) => waiters.set(id, { since, resolve }));
    },
    close: () => abort.abort(),
  };
}

const cpu = () => {
  const fields = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1]?.split(' ');
  // utime and stime, in clock ticks (100 a second on Linux).
  return ((Number(fields?.[11]) + Number(fields?.[12])) / 100) * 1000;
};
const rss = () =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1]) * 1024;

const figures: Figure[] = [];
const figure = (
  id: string,
  label: string,
  unit: Figure['unit'],
  values: number[],
  note?: string,
) => {
  figures.push({ id, label, unit, portal: stat(values), floor: null, ...(note ? { note } : {}) });
};

try {
  // The first reads are done once every system has its lag.
  for (;;) {
    const text = await metrics();
    if (SYSTEMS.every((system) => text.includes(`qi_watch_lag_seconds{system="${system}"}`))) break;
    await wait(200);
  }
  const expected = SYSTEMS.length * (60 / INTERVAL_SECONDS);
  console.log(
    `${engine}. Watching ${SYSTEMS.length} systems every ${INTERVAL_SECONDS} s (empty lists: one page each): expected ${expected} list requests a minute\n`,
  );

  let inboxes: Inbox[] = [];
  for (const count of [1, 10, 100]) {
    for (const inbox of inboxes) inbox.close();
    inboxes = [];
    for (let i = 0; i < count; i++) inboxes.push(await openInbox(i));
    await wait(INTERVAL_SECONDS * 1000);
    const before = upstreamGets();
    const started = performance.now();
    await wait(WINDOW_SECONDS * 1000);
    const perMinute = (upstreamGets() - before) / ((performance.now() - started) / 60_000);
    console.log(`  ${String(count).padStart(3)} inboxes: ${perMinute.toFixed(1)} requests/min`);
    figure(
      `watchUpstream${count}`,
      `upstream list requests a minute, ${count} open inbox${count === 1 ? '' : 'es'}`,
      'requests/min',
      [perMinute],
      `expected ${expected}`,
    );
  }

  // New question → every listening inbox (the 100 still open).
  const first: number[] = [];
  const last: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    // Asked at a random point of the watcher's interval, as agents ask.
    await wait(Math.random() * INTERVAL_SECONDS * 1000);
    const since = performance.now();
    const { call } = (await post('reflexio', 'questions', pendingQuestion(run))) as {
      call: { id: string };
    };
    const times = await Promise.all(inboxes.map((inbox) => inbox.heard(call.id, since)));
    first.push(Math.min(...times));
    last.push(Math.max(...times));
  }
  for (const inbox of inboxes) inbox.close();
  console.log(
    `\n  new question → first inbox: median ${stat(first)?.median.toFixed(0)} ms; → the last of 100: median ${stat(last)?.median.toFixed(0)} ms`,
  );
  figure('watchNewToListener', 'new question → a listening inbox (median)', 'ms', first);
  figure('watchNewToAllListeners', 'new question → the last of 100 inboxes (median)', 'ms', last);

  // 10,000 pending questions.
  const baseline = rss();
  const seeded = performance.now();
  for (const system of SYSTEMS) await post(system, 'reset', { seed: 'empty' });
  const batch = async (count: number, run: (i: number) => Promise<unknown>) => {
    for (let start = 0; start < count; start += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, count - start) }, (_, k) => run(start + k)),
      );
    }
  };
  await batch(500, (i) => post('reflexio', 'questions', pendingQuestion(i)));
  await batch(9_000, (i) =>
    post('vertesia', 'asks', {
      agentName: `Agent ${i % 12}`,
      questions: [`Should deployment ${i} of service-${i % 37} go ahead?`],
      timeoutHours: 1 + (i % 48),
    }),
  );
  await batch(100, (c) =>
    post('bilby', 'conversations', {
      title: `Conversation ${c}`,
      pending: Array.from({ length: 5 }, (_, k) => ({
        questions: [
          {
            question: `Deploy ${c * 5 + k}?`,
            header: `Deploy ${c * 5 + k}`,
            options: [
              { label: 'Staging', description: 'Try it first' },
              { label: 'Production', description: 'Ship it' },
            ],
            multiSelect: false,
          },
        ],
      })),
    }),
  );
  while ((await pendingTotal()) < 10_000) await wait(500);
  console.log(
    `\n  10,000 pending questions seeded and watched in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
  );
  await wait(INTERVAL_SECONDS * 1000);
  const rssValues: number[] = [];
  const cpuPerCycle: number[] = [];
  const samples = Math.max(1, Math.round(WINDOW_SECONDS / INTERVAL_SECONDS / 2));
  for (let i = 0; i < samples; i++) {
    const before = cpu();
    await wait(2 * INTERVAL_SECONDS * 1000);
    cpuPerCycle.push((cpu() - before) / 2);
    rssValues.push(rss());
  }
  const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(0)} MB`;
  console.log(
    `  RSS median ${mb(stat(rssValues)?.median ?? 0)} (${mb(baseline)} with empty lists); CPU per cycle median ${stat(cpuPerCycle)?.median.toFixed(0)} ms`,
  );
  figure(
    'watchRss10k',
    '10,000 pending: server RSS',
    'bytes',
    rssValues,
    `the server process on ${engine}; ${mb(baseline)} before seeding`,
  );
  figure('watchCpuPerCycle10k', '10,000 pending: server CPU per watch cycle', 'ms', cpuPerCycle);
} finally {
  await server.stop();
  await postgres?.stop();
  for (const listening of mockServers) listening.close();
  for (const mock of Object.values(mockApps)) mock.close();
  rmSync(dataDir, { recursive: true, force: true });
}

const verdicts: Verdict[] = judgeAll(figures, watchBudgets);
console.log(`\n${budgetsTable(verdicts)}`);
if (strict && verdicts.some((verdict) => verdict.status === 'FAIL')) process.exit(1);
