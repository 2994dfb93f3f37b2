// The flood (issue 36): two replicas of the portal server (server/start.ts --production) on one
// real PostgreSQL (server/db/test-postgres.ts). Replica A takes the flood: 1,000 event streams
// opened from raw sockets that never read, spread over 100 reviewers (a reviewer may hold 20),
// and presence from 200 reviewers, each a new question or typing every time, for 60 s
// (bench/flood-client.ts, a process of its own). Replica B meanwhile serves answers: a reviewer
// answers a pending Reflexio question of B's mock every 250 ms, through the portal (the trail
// records it in the shared PostgreSQL, the team hears of it). The same answers and /healthz
// probes run first for 20 s with no flood: the quiet time the flood's are judged against.
//
// Figures: each replica's RSS growth (the most during the flood over the quiet phase's median),
// /healthz p99 on A every 100 ms, B's median answer time over its quiet median, and errors: an
// answer on B or a /healthz on A that failed. A stream or presence message refused 429 or 503
// is the server holding (its caps), not an error; what the flood's clients met is printed too.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { TENANT_HEADER } from '../mock/app.ts';
import { freePort, type PortalProcess, startPortalProcess } from '../scripts/portal-process.ts';
import { startTestPostgres } from '../server/db/test-postgres.ts';
import { floodBudgets } from './bundle-size.ts';
import type { FloodClientOptions, FloodClientReport } from './flood-client.ts';
import { type Figure, figuresTable, judgeAll, type Stat, stat, type Verdict } from './report.ts';
import { ask } from './seed.ts';
import { benchServerEnv, REVIEWER_HEADER as HEADER } from './team.ts';

const TENANT = 'flood';
const QUIET_SECONDS = 20;
const ANSWER_EVERY_MS = 250;
const HEALTHZ_EVERY_MS = 100;
const RSS_EVERY_MS = 500;
const SETTLE_MS = 5_000;

export const FLOOD = { streams: 1000, streamIdentities: 100, names: 200, presencePerSecond: 400 };

export interface FloodRun {
  seconds: number;
  rssBeforeA: number;
  rssBeforeB: number;
  rssGrowthA: number;
  rssGrowthB: number;
  /** RSS of A 5 s after the flood's sockets closed, over the quiet median. */
  rssAfterA: number;
  healthzQuietP99: number | null;
  healthzFloodP99: number | null;
  answerQuietMedian: number | null;
  answerFloodMedian: number | null;
  answerFloodP95: number | null;
  answers: number;
  errors: number;
  client: FloodClientReport;
  /** Streams replica A says it closed because their readers stopped reading. */
  closedStalled: number;
  /** Lines A and B logged saying they could not tell each other. */
  linkFailures: number;
  uptime: string;
}

export interface FloodResult {
  runs: FloodRun[];
  figures: Figure[];
  verdicts: Verdict[];
  problems: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)] as number;
}

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** Calls `work` every `everyMs` until `until`, each call after the last has finished. */
async function every(everyMs: number, until: number, work: () => Promise<void>) {
  while (Date.now() < until) {
    const started = Date.now();
    await work();
    await sleep(everyMs - (Date.now() - started));
  }
}

interface Probes {
  healthz: number[];
  answers: number[];
  errors: string[];
  rssA: number[];
  rssB: number[];
}

async function probe(
  a: { origin: string; pid: number },
  b: { origin: string; pid: number },
  questions: string[],
  until: number,
): Promise<Probes> {
  const out: Probes = { healthz: [], answers: [], errors: [], rssA: [], rssB: [] };
  await Promise.all([
    every(HEALTHZ_EVERY_MS, until, async () => {
      const started = performance.now();
      try {
        const response = await fetch(`${a.origin}/healthz`, {
          signal: AbortSignal.timeout(10_000),
        });
        await response.arrayBuffer();
        if (response.status !== 200) out.errors.push(`/healthz on A: HTTP ${response.status}`);
        out.healthz.push(performance.now() - started);
      } catch (error) {
        out.errors.push(`/healthz on A: ${String(error)}`);
      }
    }),
    every(ANSWER_EVERY_MS, until, async () => {
      const id = questions.shift();
      if (!id) {
        out.errors.push('no pending question left to answer on B');
        return;
      }
      const started = performance.now();
      try {
        const response = await fetch(`${b.origin}/api/pending_tool_calls/${id}/resolve`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            [HEADER]: 'answering@example.com',
            [TENANT_HEADER]: TENANT,
          },
          body: JSON.stringify({ result: { answer: 'yes' } }),
          signal: AbortSignal.timeout(30_000),
        });
        const text = await response.text();
        if (!response.ok)
          out.errors.push(`answer on B: HTTP ${response.status} ${text.slice(0, 200)}`);
        else out.answers.push(performance.now() - started);
      } catch (error) {
        out.errors.push(`answer on B: ${String(error)}`);
      }
    }),
    every(RSS_EVERY_MS, until, async () => {
      out.rssA.push(await rssOf(a.pid));
      out.rssB.push(await rssOf(b.pid));
    }),
  ]);
  return out;
}

function runClient(root: string, options: FloodClientOptions): Promise<FloodClientReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join('bench', 'flood-client.ts'), JSON.stringify(options)],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      errors = (errors + chunk.toString()).slice(-4000);
    });
    child.once('exit', (code) => {
      const line = output.trim().split('\n').at(-1);
      if (code === 0 && line) resolve(JSON.parse(line) as FloodClientReport);
      else reject(new Error(`the flood's clients exited with ${code}: ${errors}`));
    });
  });
}

const median = (values: number[]) => stat(values)?.median ?? null;

async function runOnce(options: {
  root: string;
  databaseUrl: string;
  seconds: number;
  run: number;
  log: (line: string) => void;
}): Promise<FloodRun> {
  const { root, log } = options;
  const replicas: PortalProcess[] = [];
  const start = async () => {
    const port = await freePort();
    const env = benchServerEnv(port, { DATABASE_URL: options.databaseUrl, DATA_DIR: undefined });
    const server = await startPortalProcess(env, { cwd: root });
    replicas.push(server);
    return { origin: `http://127.0.0.1:${port}`, port, pid: server.pid, server };
  };
  try {
    const a = await start();
    const b = await start();
    const total = Math.ceil(((QUIET_SECONDS + options.seconds) * 1000) / ANSWER_EVERY_MS) + 40;
    const questions: string[] = [];
    for (let i = 0; i < total; i++) {
      questions.push(
        await ask(b.origin, TENANT, {
          question: `Flood ${options.run}.${i}: may the rollout continue?`,
          answer_format: 'yes/no',
          expires_in_seconds: 3 * 3600,
        }),
      );
    }
    // Warm both up (the first requests compile the server's code as they go).
    await probe(a, b, questions, Date.now() + 5_000);
    log(`flood run ${options.run}: quiet ${QUIET_SECONDS} s…`);
    const quiet = await probe(a, b, questions, Date.now() + QUIET_SECONDS * 1000);
    log(
      `flood run ${options.run}: ${FLOOD.streams} unread streams and presence from ${FLOOD.names} reviewers on A for ${options.seconds} s, answers on B…`,
    );
    const uptime = await readFile('/proc/loadavg', 'utf8').then((text) => text.trim());
    const client = runClient(root, {
      port: a.port,
      streams: FLOOD.streams,
      streamIdentities: FLOOD.streamIdentities,
      names: FLOOD.names,
      presencePerSecond: FLOOD.presencePerSecond,
      seconds: options.seconds,
      header: HEADER,
    });
    const flood = await probe(a, b, questions, Date.now() + options.seconds * 1000);
    const report = await client;
    await sleep(SETTLE_MS);
    const rssBeforeA = median(quiet.rssA) ?? 0;
    const rssBeforeB = median(quiet.rssB) ?? 0;
    const output = a.server.output() + b.server.output();
    const result: FloodRun = {
      seconds: options.seconds,
      rssBeforeA,
      rssBeforeB,
      rssGrowthA: Math.max(...flood.rssA) - rssBeforeA,
      rssGrowthB: Math.max(...flood.rssB) - rssBeforeB,
      rssAfterA: (await rssOf(a.pid)) - rssBeforeA,
      healthzQuietP99: percentile(quiet.healthz, 0.99),
      healthzFloodP99: percentile(flood.healthz, 0.99),
      answerQuietMedian: median(quiet.answers),
      answerFloodMedian: median(flood.answers),
      answerFloodP95: percentile(flood.answers, 0.95),
      answers: flood.answers.length,
      errors: quiet.errors.length + flood.errors.length,
      client: report,
      closedStalled: [
        ...a.server.output().matchAll(/closed (\d+) event streams whose readers stopped/g),
      ].reduce((sum, match) => sum + Number(match[1]), 0),
      linkFailures: (output.match(/could not tell other replicas/g) ?? []).length,
      uptime: `load ${uptime.split(' ').slice(0, 3).join(' ')}`,
    };
    const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
    log(
      `flood run ${options.run}: RSS growth A ${mb(result.rssGrowthA)} (from ${mb(rssBeforeA)}), B ${mb(result.rssGrowthB)}; A after ${mb(result.rssAfterA)}; /healthz p99 ${result.healthzQuietP99?.toFixed(1)} → ${result.healthzFloodP99?.toFixed(1)} ms; answers on B ${result.answerQuietMedian?.toFixed(1)} → ${result.answerFloodMedian?.toFixed(1)} ms (p95 ${result.answerFloodP95?.toFixed(1)}); errors ${result.errors}; streams held ${report.held}, refused ${JSON.stringify(report.refused)}, failed ${report.streamErrors}; presence ${JSON.stringify(report.presence)}; ${result.uptime}`,
    );
    for (const error of [...quiet.errors, ...flood.errors].slice(0, 5)) log(`  ${error}`);
    return result;
  } finally {
    for (const replica of replicas) await replica.stop();
  }
}

const of = (runs: readonly FloodRun[], pick: (run: FloodRun) => number | null): Stat | null =>
  stat(runs.map(pick));

export function floodFigures(runs: readonly FloodRun[]): Figure[] {
  const figure = (
    id: string,
    label: string,
    unit: Figure['unit'],
    pick: (run: FloodRun) => number | null,
    note?: string,
  ): Figure => ({
    id,
    label,
    unit,
    portal: of(runs, pick),
    floor: null,
    ...(note ? { note } : {}),
  });
  return [
    figure(
      'floodRssGrowthA',
      'flood: RSS growth of the flooded replica',
      'bytes',
      (r) => r.rssGrowthA,
    ),
    figure(
      'floodRssGrowthB',
      'flood: RSS growth of the answering replica',
      'bytes',
      (r) => r.rssGrowthB,
    ),
    figure(
      'floodRssAfter',
      'flood: RSS of the flooded replica 5 s after its streams closed, over the quiet',
      'bytes',
      (r) => r.rssAfterA,
    ),
    figure(
      'floodHealthzP99',
      'flood: /healthz p99 on the flooded replica',
      'ms',
      (r) => r.healthzFloodP99,
      `quiet: ${of(runs, (r) => r.healthzQuietP99)?.median.toFixed(1) ?? '–'} ms; one probe every ${HEALTHZ_EVERY_MS} ms`,
    ),
    {
      id: 'floodAnswerTime',
      label: 'flood: answer time on the other replica (median)',
      unit: 'ms',
      portal: of(runs, (r) => r.answerFloodMedian),
      floor: of(runs, (r) => r.answerQuietMedian),
      compare: true,
      note: `one answer every ${ANSWER_EVERY_MS} ms; judged against the same answers with no flood (${QUIET_SECONDS} s); p95 during the flood ${of(runs, (r) => r.answerFloodP95)?.median.toFixed(1) ?? '–'} ms`,
    },
    figure(
      'floodErrors',
      'flood: failed answers on the other replica and /healthz on the flooded one',
      'requests',
      (r) => r.errors,
      'a stream or presence message refused 429/503 is the server holding, not an error',
    ),
  ];
}

export function judgeFlood(runs: readonly FloodRun[]): Verdict[] {
  const verdicts = judgeAll(floodFigures(runs), floodBudgets);
  // A median of errors could hide one run's: every run must have none, and every run must have
  // flooded (streams held up to the cap, presence taken), or it measured nothing.
  const clean = runs.filter((run) => run.errors === 0).length;
  const flooded = runs.filter(
    (run) => run.client.held > 0 && (run.client.presence['200'] ?? 0) > 0,
  ).length;
  return [
    ...verdicts,
    {
      id: 'floodEveryRunClean',
      label: 'flood: no errors in any run, and every run flooded',
      limit: 'every run',
      value: `${Math.min(clean, flooded)} of ${runs.length}`,
      status: runs.length > 0 && clean === runs.length && flooded === runs.length ? 'PASS' : 'FAIL',
    },
  ];
}

export async function measureFlood(options: {
  root: string;
  runs: number;
  seconds: number;
  log: (line: string) => void;
}): Promise<FloodResult> {
  const problems: string[] = [];
  const runs: FloodRun[] = [];
  options.log('Starting PostgreSQL for the flood (server/db/test-postgres.ts)…');
  const postgres = await startTestPostgres();
  try {
    for (let run = 1; run <= options.runs; run++) {
      try {
        runs.push(
          await runOnce({
            root: options.root,
            databaseUrl: await postgres.createDatabase(),
            seconds: options.seconds,
            run,
            log: options.log,
          }),
        );
      } catch (error) {
        problems.push(
          `flood run ${run}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  } finally {
    await postgres.stop();
  }
  return { runs, figures: floodFigures(runs), verdicts: judgeFlood(runs), problems };
}

export function describeFlood(result: FloodResult): string {
  const lines = result.runs.map((run, i) => {
    const c = run.client;
    return `  run ${i + 1}: streams held ${c.held}, refused ${JSON.stringify(c.refused)} (status p99 ${c.streamStatusP99Ms?.toFixed(1) ?? '–'} ms), failed ${c.streamErrors}, closed by A as stalled ${run.closedStalled}; presence ${JSON.stringify(c.presence)} (p99 ${c.presenceP99Ms?.toFixed(1) ?? '–'} ms, ${c.presenceSkipped} not sent: 256 waiting); ${run.answers} answers on B; "could not tell other replicas" logged ${run.linkFailures}×; ${run.uptime} at the start`;
  });
  return [
    `The flood (bench/flood.ts, issue 36): two replicas on one PostgreSQL; ${FLOOD.streams} unread event streams (${FLOOD.streamIdentities} reviewers) and presence from ${FLOOD.names} reviewers (${FLOOD.presencePerSecond}/s) on A for ${result.runs[0]?.seconds ?? '–'} s while B answers, ${result.runs.length} run${result.runs.length === 1 ? '' : 's'}, medians (min–max):`,
    figuresTable(result.figures),
    ...result.figures.filter((f) => f.note).map((f) => `  ${f.label}: ${f.note}`),
    ...lines,
  ].join('\n');
}
