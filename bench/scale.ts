// The scale scenario: 10,000 pending questions across the three systems, most of them Vertesia
// (a Vertesia project returns every ask at once, with no paging): 500 Reflexio (the most one
// Reflexio list returns), 9,000 Vertesia asks and 500 Bilby tool calls in 100 conversations. All
// through the mocks' control routes, as agents would ask.
import type { Browser } from '@playwright/test';
import { TENANT_HEADER } from '../mock/app.ts';
import { BILBY_ORGANIZATION_ID } from '../mock/bilby/seed.ts';
import { scaleBudgets } from './bundle-size.ts';
import { type PageRun, runPage, type Selectors, warmUp } from './measure.ts';
import { type Figure, judgeAll, stat, type Verdict } from './report.ts';
import { control, pendingQuestion } from './seed.ts';
import { FLOOR_PATH, startBenchServer } from './server.ts';

export const SCALE_COUNTS = { reflexio: 500, vertesia: 9_000, bilby: 500 } as const;
export const SCALE_TOTAL = SCALE_COUNTS.reflexio + SCALE_COUNTS.vertesia + SCALE_COUNTS.bilby;
const BILBY_CALLS_PER_CONVERSATION = 5;
const BATCH = 50;

async function post(origin: string, tenant: string, route: string, body: unknown) {
  const response = await fetch(`${origin}/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [TENANT_HEADER]: tenant },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    throw new Error(`POST /${route}: HTTP ${response.status} ${await response.text()}`);
  }
  return response.json();
}

async function inBatches(count: number, run: (i: number) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < count; start += BATCH) {
    await Promise.all(
      Array.from({ length: Math.min(BATCH, count - start) }, (_, k) => run(start + k)),
    );
  }
}

/** Text like the 500-question scenario's, so the same search ("service-" then "7") narrows it. */
function scaleText(i: number): string {
  return `Scale question ${i}: should deployment ${i} of service-${i % 37} go to ${i % 2 ? 'staging' : 'production'}? ${'Context. '.repeat(i % 12)}`;
}

export async function seedScaleTenant(
  origin: string,
  tenant: string,
  counts: { reflexio: number; vertesia: number; bilby: number } = SCALE_COUNTS,
): Promise<void> {
  await control(origin, tenant, 'reset', { seed: 'empty' });
  await post(origin, tenant, 'vertesia/__mock/reset', { seed: 'empty' });
  await post(origin, tenant, 'bilby/__mock/reset', { seed: 'empty' });

  await inBatches(counts.reflexio, (i) => control(origin, tenant, 'questions', pendingQuestion(i)));
  await inBatches(counts.vertesia, (i) =>
    post(origin, tenant, 'vertesia/__mock/asks', {
      agentName: `Agent ${i % 12}`,
      questions: i % 10 === 0 ? [scaleText(i), `And who should sign off on ${i}?`] : [scaleText(i)],
      timeoutHours: 1 + (i % 48),
      createdAgoMs: (i % 600) * 1_000,
    }),
  );
  await inBatches(counts.bilby / BILBY_CALLS_PER_CONVERSATION, (c) =>
    post(origin, tenant, 'bilby/__mock/conversations', {
      title: `Conversation ${c}`,
      updatedAgoMs: c * 1_000,
      pending: Array.from({ length: BILBY_CALLS_PER_CONVERSATION }, (_, k) => {
        const i = c * BILBY_CALLS_PER_CONVERSATION + k;
        return {
          createdAgoMs: i * 1_000,
          questions: [
            {
              question: scaleText(counts.vertesia + i),
              header: `Deploy ${i}`,
              options: [
                { label: 'Staging', description: 'Try it first' },
                { label: 'Production', description: 'Ship it' },
              ],
              multiSelect: false,
            },
          ],
        };
      }),
    }),
  );
}

export interface ScaleResult {
  figures: Figure[];
  verdicts: Verdict[];
  problems: string[];
  seedSeconds: number;
}

/**
 * The scale scenario on a server of its own (all three systems' mocks, a config naming them):
 * `runs` loads of the portal and of bench/floor/scale.html, interleaved, after one unmeasured
 * load of each. Figures: list visible (ratio to the floor), keystroke → filtered list, click →
 * drawer, JS heap after load. The countdown tick is not traced here.
 */
export async function measureScale(options: {
  browser: Browser;
  distDir: string;
  port: number;
  runs: number;
  pollIntervalMs: number | null;
  selectors: Selectors;
  log: (line: string) => void;
}): Promise<ScaleResult> {
  const tenant = 'scale';
  const server = await startBenchServer({
    distDir: options.distDir,
    port: options.port,
    allSystems: true,
  });
  const { origin } = server;
  const portalRuns: PageRun[] = [];
  const floorRuns: PageRun[] = [];
  const problems: string[] = [];
  const seedStarted = Date.now();
  try {
    options.log(
      `Seeding ${SCALE_TOTAL.toLocaleString('en')} questions across three sources at ${origin}…`,
    );
    await seedScaleTenant(origin, tenant);
    const seedSeconds = (Date.now() - seedStarted) / 1000;
    const floorUrl = `${origin}${FLOOR_PATH}scale.html?org=${BILBY_ORGANIZATION_ID}`;
    const common = {
      browser: options.browser,
      origin,
      tenant,
      selectors: options.selectors,
      tickWindowMs: 0,
      tick: false,
    };
    await warmUp({ ...common, urls: [`${origin}/questions`, floorUrl], loads: 1 });
    for (let run = 1; run <= options.runs; run++) {
      const portal = () =>
        runPage({
          ...common,
          url: `${origin}/questions`,
          pollIntervalMs: options.pollIntervalMs,
          interactions: true,
        });
      const floor = () =>
        runPage({ ...common, url: floorUrl, pollIntervalMs: null, interactions: false });
      // Each page goes first in every other run, as in the 500-question scenario.
      let p: PageRun;
      let f: PageRun;
      if (run % 2 === 1) {
        p = await portal();
        f = await floor();
      } else {
        f = await floor();
        p = await portal();
      }
      portalRuns.push(p);
      floorRuns.push(f);
      const show = (value: number | null | undefined) =>
        typeof value === 'number' ? `${value.toFixed(0)} ms` : '–';
      options.log(
        `scale run ${run}/${options.runs}  portal: visible ${show(p.listVisible)} (${p.rowsWhenVisible ?? '–'} rows), search ${show(p.searchToPaint)}, drawer ${show(p.drawerOpen)}  floor: visible ${show(f.listVisible)} (${f.rowsWhenVisible ?? '–'} rows)`,
      );
      for (const [page, result] of [
        ['portal', p],
        ['floor', f],
      ] as const) {
        for (const error of result.errors) problems.push(`scale run ${run}, ${page}: ${error}`);
      }
    }
    const pick = (list: PageRun[], key: keyof PageRun) =>
      stat(list.map((entry) => entry[key] as number | null | undefined));
    const figures: Figure[] = [
      {
        id: 'scaleListVisible',
        label: '10k: list visible after navigation',
        unit: 'ms',
        portal: pick(portalRuns, 'listVisible'),
        floor: pick(floorRuns, 'listVisible'),
        compare: true,
        note: `rows in the page when first visible: portal ${pick(portalRuns, 'rowsWhenVisible')?.median ?? '–'}, floor ${pick(floorRuns, 'rowsWhenVisible')?.median ?? '–'}`,
      },
      {
        id: 'scaleSearchToPaint',
        label: '10k: keystroke to filtered list painted',
        unit: 'ms',
        portal: pick(portalRuns, 'searchToPaint'),
        floor: null,
      },
      {
        id: 'scaleDrawerOpen',
        label: '10k: click to drawer painted',
        unit: 'ms',
        portal: pick(portalRuns, 'drawerOpen'),
        floor: null,
      },
      {
        id: 'scaleHeapAfterLoad',
        label: '10k: JS heap after load',
        unit: 'bytes',
        portal: pick(portalRuns, 'heapAfterLoad'),
        floor: pick(floorRuns, 'heapAfterLoad'),
        compare: false,
      },
    ];
    return { figures, verdicts: judgeAll(figures, scaleBudgets), problems, seedSeconds };
  } finally {
    await server.close();
  }
}
