// Benchmark of the inbox with 500 pending questions, against a hand-written floor page, in
// headless Chromium. Never run as a test: shared machines are noisy, so it reports medians and
// ranges and judges them against bench/budgets.json.
//
//   npm run bench                                  7 runs, soak, tabs, 10k, triage, presence, flood (about 15 minutes)
//   npm run bench -- --runs 3 --soak-minutes 0     quicker, no soak
//   npm run bench -- --strict                      exit 1 when a budget fails
//   npm run bench -- --tabs-only                   only requests and KB per minute, 1 tab and 3 tabs
//   npm run bench -- --triage-only                 only the triage figure (keyboard-only reviewer)
//   npm run bench -- --team-only                   only presence and claims, 3 tabs (about 2 minutes)
//   npm run bench -- --flood-only                  only the flood: two replicas, one flooded (about 2 minutes a run)
//
// Builds the portal into dist/, serves a copy of it (bench/results/dist/) with the mock backend
// and bench/floor/ on one port, and writes everything it measured to bench/results/latest.json.
// What each figure means and how it is measured: bench/README.md.
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { describeInitialAssets, initialAssetSizes } from '../bench/bundle-size.ts';
import { describeFlood, type FloodResult, measureFlood } from '../bench/flood.ts';
import {
  LAUNCH_ARGS,
  MARKS,
  measureRequests,
  measureSoak,
  type PageRun,
  PORTAL_SELECTORS,
  type RequestsResult,
  runPage,
  type SoakResult,
  warmUp,
} from '../bench/measure.ts';
import {
  budgetsTable,
  type Figure,
  figuresTable,
  judgeAll,
  stat,
  type Verdict,
} from '../bench/report.ts';
import { measureScale, SCALE_COUNTS, type ScaleResult } from '../bench/scale.ts';
import { BENCH_TENANT, PENDING_COUNT, seedBenchTenant } from '../bench/seed.ts';
import { benchDistDir, FLOOR_PATH, prepareBenchDist, startBenchServer } from '../bench/server.ts';
import { measureSources, SOURCES_COUNTS, type SourcesResult } from '../bench/sources.ts';
import { describeTabs, judgeTabs, measureTabs, type TabsResult } from '../bench/tabs.ts';
import { describeTeam, measureTeam, type TeamResult } from '../bench/team.ts';
import { describeTriage, measureTriageFigure, type TriageResult } from '../bench/triage.ts';
import { describeWire, measureWire } from '../bench/wire.ts';
import { findNginx } from '../e2e/proxy/harness.ts';
import { findChromium } from './find-chromium.ts';

const SELECTORS = PORTAL_SELECTORS;
const TENANT = BENCH_TENANT;
const AGENT_ASKS_EVERY_MS = 3000;

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    'soak-minutes': { type: 'string', default: '1' },
    'soak-warmup-minutes': { type: 'string', default: '1' },
    'requests-seconds': { type: 'string', default: '30' },
    'tick-seconds': { type: 'string', default: '5' },
    'tabs-seconds': { type: 'string', default: '120' },
    'tabs-warmup-seconds': { type: 'string', default: '100' },
    'tabs-only': { type: 'boolean', default: false },
    'scale-runs': { type: 'string', default: '3' },
    'scale-only': { type: 'boolean', default: false },
    'sources-runs': { type: 'string' },
    'sources-only': { type: 'boolean', default: false },
    'triage-runs': { type: 'string', default: '1' },
    'triage-only': { type: 'boolean', default: false },
    'team-runs': { type: 'string', default: '1' },
    'team-seconds': { type: 'string', default: '30' },
    'team-only': { type: 'boolean', default: false },
    'flood-runs': { type: 'string', default: '1' },
    'flood-seconds': { type: 'string', default: '60' },
    'flood-only': { type: 'boolean', default: false },
    port: { type: 'string', default: process.env.BENCH_PORT ?? '5195' },
    strict: { type: 'boolean', default: false },
    'skip-build': { type: 'boolean', default: false },
    'trace-summary': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

if (args.help) {
  console.log(
    [
      'npm run bench -- [options]',
      '  --runs N              page loads per page, portal and floor interleaved (7)',
      '  --soak-minutes M      heap soak with an agent asking every 3 s; 0 skips it (1)',
      '  --soak-warmup-minutes W  the same activity before the first soak reading (1)',
      '  --requests-seconds S  visible and hidden windows for requests per minute (30)',
      '  --tick-seconds S      trace window for the countdown tick (5)',
      '  --tabs-seconds S      window for requests and KB per minute with 1 and 3 tabs (120)',
      '  --tabs-warmup-seconds S  before that window, time for the polling to back off (100)',
      '  --tabs-only           measure only the tabs scenarios (about 4 minutes)',
      '  --scale-runs N        loads per page of the 10,000-question scenario; 0 skips it (3)',
      '  --scale-only          measure only the 10,000-question scenario',
      '  --sources-runs N      loads of the three-source scenario (issue 31); 0 skips it (--runs)',
      '  --sources-only        measure only the three-source scenario',
      '  --triage-runs N       runs of the triage figure, now and before issue 14; 0 skips it (1)',
      '  --triage-only         measure only the triage figure (about 3 minutes a run)',
      '  --team-runs N         runs of presence and claims, 3 tabs in one browser; 0 skips it (1)',
      '  --team-seconds S      each of its windows: none open, one open, typing (30)',
      '  --team-only           measure only presence and claims (about 2 minutes a run)',
      '  --flood-runs N        runs of the flood, two replicas on PostgreSQL; 0 skips it (1)',
      '  --flood-seconds S     how long the flood lasts (60)',
      '  --flood-only          measure only the flood (about 2 minutes a run)',
      '  --port P              port of the bench server (5195, or BENCH_PORT)',
      '  --strict              exit 1 when a budget fails',
      '  --skip-build          measure the dist/ that is there',
      '  --trace-summary       print the per-event accounting of the first tick traces',
    ].join('\n'),
  );
  process.exit(0);
}

const positive = (name: string, value: string | undefined, min = 1) => {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < min) {
    console.error(`--${name} must be a number ≥ ${min}, not ${value}`);
    process.exit(2);
  }
  return parsed;
};
const runs = Math.round(positive('runs', args.runs));
const soakMinutes = positive('soak-minutes', args['soak-minutes'], 0);
const soakWarmupMinutes = positive('soak-warmup-minutes', args['soak-warmup-minutes'], 0);
const requestsSeconds = positive('requests-seconds', args['requests-seconds'], 5);
const tickSeconds = positive('tick-seconds', args['tick-seconds'], 2);
const port = positive('port', args.port);
const tabsSeconds = positive('tabs-seconds', args['tabs-seconds'], 10);
const tabsWarmupSeconds = positive('tabs-warmup-seconds', args['tabs-warmup-seconds'], 0);
const tabsOnly = args['tabs-only'];
const scaleOnly = args['scale-only'];
const scaleRuns = Math.round(positive('scale-runs', args['scale-runs'], scaleOnly ? 1 : 0));
const sourcesOnly = args['sources-only'];
const sourcesRuns = Math.round(
  positive('sources-runs', args['sources-runs'] ?? String(runs), sourcesOnly ? 1 : 0),
);
const triageOnly = args['triage-only'];
const triageRuns = Math.round(positive('triage-runs', args['triage-runs'], triageOnly ? 1 : 0));
const teamOnly = args['team-only'];
const teamRuns = Math.round(positive('team-runs', args['team-runs'], teamOnly ? 1 : 0));
const teamSeconds = positive('team-seconds', args['team-seconds'], 10);
const floodOnly = args['flood-only'];
const floodRuns = Math.round(positive('flood-runs', args['flood-runs'], floodOnly ? 1 : 0));
const floodSeconds = positive('flood-seconds', args['flood-seconds'], 10);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = path.join(root, 'bench', 'results');
const distDir = benchDistDir(root);
const log = (line: string) => process.stderr.write(`${line}\n`);
const ms = (value: number | null | undefined) =>
  typeof value === 'number' ? `${value.toFixed(1)} ms` : '–';

function git(...gitArgs: string[]): string | null {
  try {
    return execFileSync('git', gitArgs, { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

async function pollIntervalOf(dir: string): Promise<number | null> {
  try {
    const config = JSON.parse(await readFile(path.join(dir, 'config.json'), 'utf8'));
    return typeof config.pollIntervalMs === 'number' ? config.pollIntervalMs : 10_000;
  } catch {
    return null;
  }
}

const started = Date.now();
await prepareBenchDist({ root, build: !args['skip-build'], log });
const staticAssets = await initialAssetSizes(distDir);
// The first page's JS and CSS as sent, next to nginx with the documented configuration.
const nginxPath =
  tabsOnly || scaleOnly || triageOnly || sourcesOnly || teamOnly || floodOnly ? null : findNginx();
const wire = nginxPath
  ? await measureWire(distDir, nginxPath).catch((error: unknown) => {
      log(`Bytes on the wire not measured: ${String(error)}`);
      return null;
    })
  : null;
const pollIntervalMs = await pollIntervalOf(distDir);

const server = await startBenchServer({ distDir, port });
const { origin } = server;
const browser = await chromium.launch({
  executablePath: findChromium() ?? undefined,
  args: LAUNCH_ARGS,
});
const chromiumVersion = browser.version();
const portalRuns: PageRun[] = [];
const floorRuns: PageRun[] = [];
let requests: RequestsResult | null = null;
let soak: SoakResult | null = null;
let tabs: TabsResult[] | null = null;
const problems: string[] = [];
const tabsOptions = {
  browser,
  origin,
  records: server.traffic,
  warmupSeconds: tabsWarmupSeconds,
  windowSeconds: tabsSeconds,
};
const tabsLabel = `Requests and KB per minute with 1 and 3 tabs, idle and answering (${tabsWarmupSeconds} s warm-up, ${tabsSeconds} s counted)…`;

const scaleOptions = {
  browser,
  distDir,
  // Its own server (three systems' mocks, a config naming them) next to the main one.
  port: port + 1,
  runs: scaleRuns,
  pollIntervalMs,
  selectors: SELECTORS,
  log,
};
const describeScale = (scale: ScaleResult) =>
  [
    `10,000 questions across three sources (bench/scale.ts: ${SCALE_COUNTS.reflexio} Reflexio, ${SCALE_COUNTS.vertesia.toLocaleString('en')} Vertesia, ${SCALE_COUNTS.bilby} Bilby in 100 conversations; seeded in ${scale.seedSeconds.toFixed(0)} s), ${scaleRuns} runs per page, medians (min–max):`,
    figuresTable(scale.figures),
    ...scale.figures.filter((figure) => figure.note).map((f) => `  ${f.label}: ${f.note}`),
  ].join('\n');

const sourcesOptions = {
  browser,
  distDir,
  // Its own server, as the scale scenario's (which has closed by then).
  port: port + 1,
  runs: sourcesRuns,
  selectors: SELECTORS,
  log,
};
const describeSources = (sources: SourcesResult) =>
  [
    `${SOURCES_COUNTS.reflexio + SOURCES_COUNTS.vertesia + SOURCES_COUNTS.bilby} pending questions across three sources as npm start serves them (bench/sources.ts: ${SOURCES_COUNTS.reflexio} Reflexio, ${SOURCES_COUNTS.vertesia} Vertesia, ${SOURCES_COUNTS.bilby} Bilby), ${sourcesRuns} runs per page, medians (min–max):`,
    figuresTable(sources.figures),
    ...sources.figures.filter((figure) => figure.note).map((f) => `  ${f.label}: ${f.note}`),
  ].join('\n');

const triageOptions = {
  browser,
  root,
  distDir,
  // Each reviewer's run gets a server of its own (from this port up), after the others closed.
  port: port + 2,
  runs: triageRuns,
  log,
};

const teamOptions = {
  browser,
  root,
  // The portal server (server/start.ts, which serves dist/) on its own port; its proxy on any.
  port: port + 8,
  runs: teamRuns,
  windowSeconds: teamSeconds,
  log,
};

/**
 * A `--…-only` run: one scenario measured and printed under its own header, its budgets judged
 * (exit 1 with --strict when one fails), then the browser and the server closed and the process
 * ended. `verdictNotes` prints each verdict's note under the table.
 */
async function runOnly<T extends { verdicts: Verdict[]; problems?: string[] }>(
  title: string,
  measure: () => Promise<T>,
  report: (result: T) => string,
  { verdictNotes = true } = {},
): Promise<never> {
  let code = 0;
  try {
    const result = await measure();
    const problems = result.problems ?? [];
    console.log(
      [
        `Questions Inbox benchmark, ${title} only: Chromium ${chromiumVersion} headless, ${os.cpus().length} CPUs, commit ${git('rev-parse', '--short', 'HEAD') ?? '?'}${git('status', '--porcelain') ? ' + local changes' : ''}`,
        '',
        report(result),
        '',
        budgetsTable(result.verdicts),
        ...(verdictNotes
          ? result.verdicts.filter((v) => v.note).map((v) => `  ${v.label}: ${v.note}`)
          : []),
        ...(problems.length > 0 ? ['', 'Problems during the run:', ...problems] : []),
      ].join('\n'),
    );
    if (args.strict && result.verdicts.some((v) => v.status === 'FAIL')) code = 1;
  } finally {
    await browser.close();
    await server.close();
  }
  process.exit(code);
}

if (triageOnly) {
  await runOnly('triage', () => measureTriageFigure(triageOptions), describeTriage, {
    verdictNotes: false,
  });
}

if (teamOnly) {
  await runOnly(
    'presence and claims',
    () => measureTeam({ ...teamOptions, initialJsBytes: staticAssets.jsGzip }),
    describeTeam,
  );
}

const floodOptions = { root, runs: floodRuns, seconds: floodSeconds, log };

if (floodOnly) {
  await runOnly('the flood', () => measureFlood(floodOptions), describeFlood);
}

if (scaleOnly) {
  await runOnly('scale', () => measureScale(scaleOptions), describeScale);
}

if (sourcesOnly) {
  await runOnly('sources', () => measureSources(sourcesOptions), describeSources);
}

let scale: ScaleResult | null = null;
let sources: SourcesResult | null = null;
let triage: TriageResult | null = null;
let team: TeamResult | null = null;
let flood: FloodResult | null = null;

if (tabsOnly) {
  await runOnly(
    'tabs',
    async () => {
      log(tabsLabel);
      const results = await measureTabs(tabsOptions);
      return { results, verdicts: judgeTabs(results) };
    },
    ({ results }) =>
      ['Requests per reviewer (bench/tabs.ts):', describeTabs(results, tabsWarmupSeconds)].join(
        '\n',
      ),
  );
}

try {
  log(`Seeding tenant "${TENANT}" at ${origin}…`);
  const pendingIds = await seedBenchTenant(origin, TENANT);

  const common = {
    browser,
    origin,
    tenant: TENANT,
    selectors: SELECTORS,
    tickWindowMs: tickSeconds * 1000,
  };
  log('Warming the server up: 2 unmeasured loads of each page…');
  await warmUp({
    ...common,
    urls: [`${origin}/questions`, `${origin}${FLOOR_PATH}`],
    loads: 2,
  });
  for (let run = 1; run <= runs; run++) {
    const measurePortal = () =>
      runPage({ ...common, url: `${origin}/questions`, pollIntervalMs, interactions: true });
    const measureFloor = () =>
      runPage({
        ...common,
        url: `${origin}${FLOOR_PATH}`,
        pollIntervalMs: null,
        interactions: false,
      });
    // Each page goes first in every other run, so neither always follows the other's teardown.
    let portal: PageRun;
    let floor: PageRun;
    if (run % 2 === 1) {
      portal = await measurePortal();
      floor = await measureFloor();
    } else {
      floor = await measureFloor();
      portal = await measurePortal();
    }
    portalRuns.push(portal);
    floorRuns.push(floor);
    log(
      `run ${run}/${runs}  portal: visible ${ms(portal.listVisible)}, tick ${ms(portal.tickTotal)}, search ${ms(portal.searchToPaint)}, drawer ${ms(portal.drawerOpen)}  floor: visible ${ms(floor.listVisible)}, tick ${ms(floor.tickTotal)}`,
    );
    for (const [page, result] of [
      ['portal', portal],
      ['floor', floor],
    ] as const) {
      for (const error of result.errors) problems.push(`run ${run}, ${page}: ${error}`);
    }
  }

  log(
    `Requests per minute (${requestsSeconds} s visible + ${requestsSeconds} s hidden)${soakMinutes > 0 ? ` and a ${soakMinutes}-minute soak, side by side` : ''}…`,
  );
  log(tabsLabel);
  const [requestsOutcome, soakOutcome, tabsOutcome] = await Promise.allSettled([
    measureRequests({
      executablePath: findChromium(),
      origin,
      tenant: TENANT,
      selectors: SELECTORS,
      windowSeconds: requestsSeconds,
    }),
    soakMinutes > 0
      ? measureSoak({
          browser,
          origin,
          tenant: TENANT,
          selectors: SELECTORS,
          minutes: soakMinutes,
          warmupMinutes: soakWarmupMinutes,
          askEveryMs: AGENT_ASKS_EVERY_MS,
          pendingIds,
          pollIntervalMs,
        })
      : Promise.resolve(null),
    measureTabs(tabsOptions),
  ]);
  if (tabsOutcome.status === 'fulfilled') tabs = tabsOutcome.value;
  else problems.push(`tabs: ${String(tabsOutcome.reason)}`);
  if (requestsOutcome.status === 'fulfilled') requests = requestsOutcome.value;
  else problems.push(`requests per minute: ${String(requestsOutcome.reason)}`);
  if (soakOutcome.status === 'fulfilled') soak = soakOutcome.value;
  else problems.push(`soak: ${String(soakOutcome.reason)}`);
  if (scaleRuns > 0) {
    scale = await measureScale(scaleOptions).catch((error: unknown) => {
      problems.push(`scale scenario: ${String(error)}`);
      return null;
    });
    if (scale) problems.push(...scale.problems);
  }
  if (sourcesRuns > 0) {
    sources = await measureSources(sourcesOptions).catch((error: unknown) => {
      problems.push(`sources scenario: ${String(error)}`);
      return null;
    });
    if (sources) problems.push(...sources.problems);
  }
  if (triageRuns > 0) {
    triage = await measureTriageFigure(triageOptions).catch((error: unknown) => {
      problems.push(`triage figure: ${String(error)}`);
      return null;
    });
    if (triage) problems.push(...triage.problems);
  }
  if (teamRuns > 0) {
    team = await measureTeam(teamOptions).catch((error: unknown) => {
      problems.push(`presence and claims: ${String(error)}`);
      return null;
    });
    if (team) problems.push(...team.problems);
  }
  if (floodRuns > 0) {
    flood = await measureFlood(floodOptions).catch((error: unknown) => {
      problems.push(`the flood: ${String(error)}`);
      return null;
    });
    if (flood) problems.push(...flood.problems);
  }
} finally {
  await browser.close();
  await server.close();
}

// ---- Figures, budgets, output. ----
const medianRows = (list: PageRun[]) => pick(list, 'rowsWhenVisible')?.median ?? '–';
const pick = (list: PageRun[], key: keyof PageRun) =>
  stat(list.map((run) => run[key] as number | null | undefined));
const both = (
  id: string,
  label: string,
  unit: Figure['unit'],
  key: keyof PageRun,
  compare = true,
): Figure => ({
  id,
  label,
  unit,
  portal: pick(portalRuns, key),
  floor: pick(floorRuns, key),
  compare,
});
const portalOnly = (id: string, label: string, unit: Figure['unit'], key: keyof PageRun) => ({
  ...both(id, label, unit, key),
  floor: null,
});

const unmarked = portalRuns.some((run) => run.marked === false);
const figures: Figure[] = [
  both('initialJs', 'initial JS, gzipped', 'bytes', 'initialJs', false),
  both('initialCss', 'initial CSS, gzipped', 'bytes', 'initialCss', false),
  {
    ...both('listVisible', 'list visible after navigation', 'ms', 'listVisible'),
    ...(unmarked
      ? { note: `the portal set no ${MARKS.rendered} mark: first painted rows used instead` }
      : {}),
  },
  both(
    'listVisibleWarm',
    'list visible, second visit (HTTP and code cache primed)',
    'ms',
    'listVisibleWarm',
  ),
  both('interactive', 'a click on a row opens it (time to interactive)', 'ms', 'interactive'),
  both('blockingTime', 'blocking time during load', 'ms', 'blockingTime'),
  both('heapAfterLoad', 'JS heap after load', 'bytes', 'heapAfterLoad'),
  {
    ...both('renderScript', `${PENDING_COUNT}-row render, script`, 'ms', 'renderScript'),
    // The portal renders the rows on screen (it virtualizes), the floor all of them: say so.
    note: portalRuns.every((run) => run.renderScript === null)
      ? `the portal set no ${MARKS.renderStart} / ${MARKS.rendered} marks`
      : `rows in the page when first visible: portal ${medianRows(portalRuns)}, floor ${medianRows(floorRuns)} (the portal renders the rows on screen)`,
  },
  both('dataToRendered', '(list parsed → rows committed, wall)', 'ms', 'dataToRendered'),
  portalOnly('searchToPaint', 'keystroke to filtered list painted', 'ms', 'searchToPaint'),
  both('tickScript', 'countdown tick, script', 'ms', 'tickScript'),
  both('tickLayoutPaint', 'countdown tick, layout + paint', 'ms', 'tickLayoutPaint'),
  both('tickTotal', 'countdown tick, script + layout + paint', 'ms', 'tickTotal'),
  portalOnly('drawerOpen', 'click to drawer painted', 'ms', 'drawerOpen'),
  {
    id: 'requestsVisible',
    label: 'requests to /api/ while visible and idle',
    unit: 'requests/min',
    portal: stat([requests?.visiblePerMinute]),
    floor: null,
  },
  {
    id: 'requestsHidden',
    label: 'requests to /api/ while hidden',
    unit: 'requests/min',
    portal: stat([requests?.hiddenPerMinute]),
    floor: null,
    ...(requests && requests.hiddenPerMinute === null ? { note: 'no mechanism hid the page' } : {}),
  },
  {
    id: 'soakHeapGrowth',
    label: `heap growth over the soak${soak ? ` (${soak.minutes} min)` : ''}`,
    unit: '%',
    portal: stat([soak?.growthPercent]),
    floor: null,
    ...(soakMinutes === 0 ? { note: 'skipped (--soak-minutes 0)', skipped: true } : {}),
  },
];
const verdicts = [
  ...judgeAll(figures),
  ...judgeTabs(tabs ?? []),
  ...(scale?.verdicts ?? []),
  ...(sources?.verdicts ?? []),
  ...(triage?.verdicts ?? []),
  ...(team?.verdicts ?? []),
  ...(flood?.verdicts ?? []),
];
const failed = verdicts.filter((verdict) => verdict.status === 'FAIL');

const out: string[] = [];
out.push(
  `Questions Inbox benchmark: ${PENDING_COUNT} pending questions, ${runs} runs per page (portal and floor interleaved), medians (min–max)`,
  `Chromium ${chromiumVersion} headless, ${os.cpus().length} CPUs, Node ${process.version}, commit ${git('rev-parse', '--short', 'HEAD') ?? '?'}${git('status', '--porcelain') ? ' + local changes' : ''}`,
  '',
  figuresTable(figures),
  '',
);
for (const figure of figures.filter((entry) => entry.note)) {
  out.push(`  ${figure.label}: ${figure.note}`);
}
if (requests) {
  out.push(`  hidden tab: ${requests.mechanism}`);
  for (const line of requests.evidence) out.push(`    ${line}`);
}
if (soak) {
  out.push(
    `  soak: heap ${(soak.heapStart / 1024 / 1024).toFixed(2)} MB → ${(soak.heapEnd / 1024 / 1024).toFixed(2)} MB over ${soak.minutes} min (after each minute: ${soak.heapByMinute.map((bytes) => (bytes / 1024 / 1024).toFixed(2)).join(', ')} MB); the agent asked ${soak.asked} questions and another reviewer answered ${soak.resolved}`,
    `  soak warm-up: ${soak.warmupMinutes} min of the same activity first, ${(soak.heapLoaded / 1024 / 1024).toFixed(2)} MB → ${(soak.heapStart / 1024 / 1024).toFixed(2)} MB (code V8 optimizes as it warms up, not counted as growth)`,
  );
}
out.push(
  `  countdown tick: renderer main-thread self time in a ${tickSeconds} s trace with no request in it, per second (one tick a second)`,
  '  JS heap after load: forced GC, then used size, right after the tick trace (about 7 s after the list is visible)',
  '',
  'Static initial download of the build (dist/index.html, bench/bundle-size.ts):',
  describeInitialAssets(staticAssets),
  '',
  'Requests per reviewer, 1 tab and 3 tabs (bench/tabs.ts):',
  tabs ? describeTabs(tabs, tabsWarmupSeconds) : '  not measured',
  '',
  scaleRuns === 0
    ? '10,000 questions across three sources: skipped (--scale-runs 0)'
    : scale
      ? describeScale(scale)
      : '10,000 questions across three sources: not measured',
  '',
  sourcesRuns === 0
    ? 'Three sources: skipped (--sources-runs 0)'
    : sources
      ? describeSources(sources)
      : 'Three sources: not measured',
  '',
  triageRuns === 0
    ? 'Triage: skipped (--triage-runs 0)'
    : triage
      ? describeTriage(triage)
      : 'Triage: not measured',
  '',
  teamRuns === 0
    ? 'Presence and claims: skipped (--team-runs 0)'
    : team
      ? describeTeam(team)
      : 'Presence and claims: not measured',
  '',
  floodRuns === 0
    ? 'The flood: skipped (--flood-runs 0)'
    : flood
      ? describeFlood(flood)
      : 'The flood: not measured',
  '',
  'On the wire (bench/wire.ts: the portal server and nginx with deploy/nginx, asked as Chromium asks):',
  wire ? describeWire(wire) : '  not measured (no nginx)',
  '',
  budgetsTable(verdicts),
);
for (const verdict of verdicts.filter((entry) => entry.note)) {
  out.push(`  ${verdict.label}: ${verdict.note}`);
}
out.push(
  '',
  failed.length === 0
    ? 'All budgets pass.'
    : `${failed.length} of ${verdicts.length} budgets fail${args.strict ? ' (--strict: exit 1)' : ' (exit 0; --strict makes this exit 1)'}.`,
);
if (problems.length > 0) {
  out.push('', 'Problems during the run:', ...problems.map((problem) => `  ${problem}`));
}

const firstTrace = (list: PageRun[]) => list.find((run) => run.tick)?.tick ?? null;
if (args['trace-summary']) {
  for (const [name, tick] of [
    ['portal', firstTrace(portalRuns)],
    ['floor', firstTrace(floorRuns)],
  ] as const) {
    if (tick) out.push('', `First ${name} tick trace, main thread of its renderer:`, tick.summary);
  }
}
console.log(out.join('\n'));

await mkdir(resultsDir, { recursive: true });
for (const [name, tick] of [
  ['portal', firstTrace(portalRuns)],
  ['floor', firstTrace(floorRuns)],
] as const) {
  if (tick) {
    await writeFile(
      path.join(resultsDir, `tick-trace-${name}.json`),
      JSON.stringify({ traceEvents: tick.events }),
    );
  }
}
const withoutEvents = (list: PageRun[]) =>
  list.map((run) => ({
    ...run,
    tick: run.tick ? { ...run.tick, events: undefined, summary: undefined } : null,
  }));
await writeFile(
  path.join(resultsDir, 'latest.json'),
  `${JSON.stringify(
    {
      generatedAt: new Date().toISOString(),
      durationSeconds: Math.round((Date.now() - started) / 1000),
      options: {
        runs,
        soakMinutes,
        soakWarmupMinutes,
        requestsSeconds,
        tickSeconds,
        strict: args.strict,
      },
      environment: {
        chromium: chromiumVersion,
        cpus: os.cpus().length,
        node: process.version,
        commit: git('rev-parse', 'HEAD'),
        localChanges: !!git('status', '--porcelain'),
      },
      figures,
      scale: scale ? { figures: scale.figures, seedSeconds: scale.seedSeconds } : null,
      sources: sources ? { figures: sources.figures } : null,
      triage: triage
        ? { beforeCommit: triage.beforeCommit, figures: triage.figures, runs: triage.runs }
        : null,
      team: team ? { figures: team.figures, runs: team.runs } : null,
      flood: flood ? { figures: flood.figures, runs: flood.runs } : null,
      budgets: verdicts,
      hiddenTab: requests,
      soak,
      staticInitialAssets: staticAssets,
      wire,
      traceSummaries: {
        portal: firstTrace(portalRuns)?.summary ?? null,
        floor: firstTrace(floorRuns)?.summary ?? null,
      },
      runs: { portal: withoutEvents(portalRuns), floor: withoutEvents(floorRuns) },
      problems,
    },
    null,
    2,
  )}\n`,
);
log(
  `Wrote bench/results/latest.json and the first tick traces (bench/results/tick-trace-*.json, open in DevTools) in ${Math.round((Date.now() - started) / 1000)} s.`,
);
process.exitCode = args.strict && failed.length > 0 ? 1 : 0;
