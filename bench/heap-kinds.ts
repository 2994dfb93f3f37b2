// Where the heap after load goes (issue 40): the bench's "JS heap after load" scenario (the inbox
// with 500 pending questions, and the floor page) with a heap snapshot in place of the single
// used-size reading, summarised by kind as DevTools' Statistics view does and by constructor as
// its Summary view does (self sizes), with the code by the script it came from
// (bench/heap-snapshot.ts says where its kinds differ from DevTools'). Medians of --runs loads per
// page, each in a fresh browser context, portal and floor taking turns to go first.
//
//   npm run bench:heap                        build, then 3 runs per page (about a minute)
//   npm run bench:heap -- --runs 5 --skip-build
//   npm run bench:heap -- --save              also writes each snapshot to bench/results/, to
//                                             open in DevTools' Memory panel
//   --port P                                  5210 (or BENCH_HEAP_PORT): clear of npm run bench's 5195–5203
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type CDPSession, chromium } from '@playwright/test';
import { findChromium } from '../scripts/find-chromium.ts';
import {
  type ClassSize,
  type HeapKinds,
  type HeapSnapshot,
  type ScriptCode,
  summariseHeapSnapshot,
} from './heap-snapshot.ts';
import {
  heapAfterGc,
  LAUNCH_ARGS,
  openList,
  PORTAL_SELECTORS,
  prepareContext,
  VIEWPORT,
  warmUp,
} from './measure.ts';
import { stat } from './report.ts';
import { BENCH_TENANT, PENDING_COUNT, seedBenchTenant } from './seed.ts';
import { FLOOR_PATH, prepareBenchDist, startBenchServer } from './server.ts';

/** The bench reads its heap about 7 s after the list is visible (after the tick trace). */
const SETTLE_MS = 7000;
const TOP_CLASSES = 12;
const TOP_SCRIPTS = 8;

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    port: { type: 'string', default: process.env.BENCH_HEAP_PORT ?? '5210' },
    'skip-build': { type: 'boolean', default: false },
    save: { type: 'boolean', default: false },
  },
});
const runs = Number(args.runs);
const port = Number(args.port);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(port)) {
  console.error('--runs and --port take whole numbers');
  process.exit(2);
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

async function takeSnapshot(cdp: CDPSession): Promise<HeapSnapshot> {
  const chunks: string[] = [];
  const onChunk = ({ chunk }: { chunk: string }) => chunks.push(chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  try {
    await cdp.send('HeapProfiler.enable');
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  } finally {
    cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  }
  return JSON.parse(chunks.join('')) as HeapSnapshot;
}

interface PageHeap {
  usedSize: number;
  kinds: HeapKinds;
  classes: Map<string, ClassSize>;
  codeByScript: Map<string, ScriptCode>;
}

const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

const distDir = await prepareBenchDist({ root, build: !args['skip-build'], log });
const server = await startBenchServer({ distDir, port });
const browser = await chromium.launch({
  executablePath: findChromium() ?? undefined,
  args: LAUNCH_ARGS,
});
const chromiumVersion = browser.version();
const pages = {
  portal: `${server.origin}/questions`,
  floor: `${server.origin}${FLOOR_PATH}`,
};
const results: Record<keyof typeof pages, PageHeap[]> = { portal: [], floor: [] };
const loadsDuring: string[] = [loadAverage()];

async function measure(name: keyof typeof pages, run: number): Promise<PageHeap> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    await prepareContext(context, server.origin, BENCH_TENANT, PORTAL_SELECTORS);
    const loaded = await openList(context, pages[name]);
    const now = await loaded.page.evaluate(() => performance.now());
    await sleep(loaded.listVisible + SETTLE_MS - now);
    const usedSize = await heapAfterGc(loaded.cdp);
    const snapshot = await takeSnapshot(loaded.cdp);
    if (args.save) {
      await writeFile(
        path.join(root, 'bench', 'results', `heap-${name}-${run}.heapsnapshot`),
        JSON.stringify(snapshot),
      );
    }
    const summary = summariseHeapSnapshot(snapshot);
    return {
      usedSize,
      kinds: summary.kinds,
      classes: new Map(summary.classes.map((entry) => [entry.name, entry])),
      codeByScript: new Map(summary.codeByScript.map((entry) => [entry.script, entry])),
    };
  } finally {
    await context.close();
  }
}

try {
  log(`Seeding tenant "${BENCH_TENANT}" (${PENDING_COUNT} pending) at ${server.origin}…`);
  await seedBenchTenant(server.origin, BENCH_TENANT);
  await warmUp({
    browser,
    origin: server.origin,
    tenant: BENCH_TENANT,
    selectors: PORTAL_SELECTORS,
    urls: Object.values(pages),
    loads: 2,
  });
  for (let run = 1; run <= runs; run++) {
    // As the bench does: each page goes first in every other run.
    const order = run % 2 === 1 ? (['portal', 'floor'] as const) : (['floor', 'portal'] as const);
    for (const name of order) results[name].push(await measure(name, run));
    loadsDuring.push(loadAverage());
    log(
      `run ${run}/${runs}  portal ${mb(results.portal.at(-1)?.kinds.total)}  floor ${mb(results.floor.at(-1)?.kinds.total)} (load ${loadsDuring.at(-1)})`,
    );
  }
} finally {
  await browser.close();
  await server.close();
}

function mb(bytes: number | null | undefined): string {
  return typeof bytes === 'number' ? `${(bytes / 1024 / 1024).toFixed(2)} MB` : '–';
}
const median = (values: number[]) => stat(values)?.median ?? 0;
const pad = (rows: string[][]) => {
  const widths = rows[0]?.map((_, column) =>
    Math.max(...rows.map((row) => row[column]?.length ?? 0)),
  );
  return rows
    .map((row) =>
      row
        .map((cell, column) =>
          column === 0 ? cell.padEnd(widths?.[column] ?? 0) : cell.padStart(widths?.[column] ?? 0),
        )
        .join('  '),
    )
    .join('\n');
};

const KIND_LABELS: [keyof HeapKinds, string][] = [
  ['code', 'Code'],
  ['strings', 'Strings'],
  ['jsArrays', 'JS arrays'],
  ['system', 'System objects (V8’s own)'],
  ['otherJs', 'Other JS objects (objects, closures)'],
  ['v8Heap', 'V8 heap, the five above'],
  ['scriptSources', 'beside it: script sources'],
  ['typedArrays', 'beside it: typed arrays'],
  ['blink', 'beside it: DOM, layout, style (Blink)'],
  ['total', 'Total in the snapshot'],
];
const kindsTable = pad([
  ['kind (median of each)', 'portal', 'floor', 'portal − floor'],
  ...KIND_LABELS.map(([key, label]) => {
    const portal = median(results.portal.map((r) => r.kinds[key]));
    const floor = median(results.floor.map((r) => r.kinds[key]));
    return [label, mb(portal), mb(floor), mb(portal - floor)];
  }),
  [
    'Runtime.getHeapUsage after GC',
    mb(median(results.portal.map((r) => r.usedSize))),
    mb(median(results.floor.map((r) => r.usedSize))),
    mb(
      median(results.portal.map((r) => r.usedSize)) - median(results.floor.map((r) => r.usedSize)),
    ),
  ],
]);

/** Median of each key over the runs, a missing key counting as 0. */
function medianByKey<T extends object>(
  runs: Map<string, T>[],
  fields: (keyof T)[],
): { key: string; values: Record<keyof T, number> }[] {
  const keys = new Set(runs.flatMap((run) => [...run.keys()]));
  return [...keys].map((key) => ({
    key,
    values: Object.fromEntries(
      fields.map((f) => [f, median(runs.map((run) => Number(run.get(key)?.[f] ?? 0)))]),
    ) as Record<keyof T, number>,
  }));
}

function codeTable(name: keyof typeof pages): string {
  const rows = medianByKey(
    results[name].map((r) => r.codeByScript),
    ['size', 'bytecode', 'machineCode'],
  )
    .sort((a, b) => b.values.size - a.values.size)
    .slice(0, TOP_SCRIPTS);
  return pad([
    [`${name}: code by script (median)`, 'code', 'bytecode', 'machine code'],
    ...rows.map(({ key, values }) => [
      key,
      mb(values.size),
      mb(values.bytecode),
      mb(values.machineCode),
    ]),
  ]);
}

function classTable(name: keyof typeof pages): string {
  const rows = medianByKey(
    results[name].map((r) => r.classes),
    ['count', 'selfSize'],
  )
    .sort((a, b) => b.values.selfSize - a.values.selfSize)
    .slice(0, TOP_CLASSES);
  const total = median(results[name].map((r) => r.kinds.total));
  return pad([
    [`${name}: constructor (self size, median)`, 'objects', 'self size', 'of total'],
    ...rows.map(({ key, values }) => [
      key.length > 60 ? `${key.slice(0, 59)}…` : key,
      String(values.count),
      mb(values.selfSize),
      `${((values.selfSize / total) * 100).toFixed(1)} %`,
    ]),
  ]);
}

console.log(
  [
    `Heap after load by kind (bench/heap-kinds.ts): ${PENDING_COUNT} pending questions, Chromium ${chromiumVersion} headless, ${runs} runs per page, forced GC then a heap snapshot ${SETTLE_MS / 1000} s after the list is visible`,
    `load average (1, 5, 15 min) before: ${loadsDuring[0]}; after each run: ${loadsDuring.slice(1).join(' | ')}`,
    '',
    kindsTable,
    '',
    codeTable('portal'),
    '',
    codeTable('floor'),
    '',
    classTable('portal'),
    '',
    classTable('floor'),
  ].join('\n'),
);
