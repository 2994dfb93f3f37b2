// The three-source scenario (issue 31): the config `npm start` serves (Reflexio, Vertesia and
// Bilby), 500 pending questions across them, next to bench/floor/scale.html (the same three APIs
// read the same way, the same rows in one plain table). Measured three ways: every system
// answering at once; Bilby's list 2 s late (list visible is then the other two systems' rows,
// judged against the same floor); and the list requests of a first load, counted in the browser.
import type { Browser } from '@playwright/test';
import { TENANT_HEADER } from '../mock/app.ts';
import { BILBY_ORGANIZATION_ID } from '../mock/bilby/seed.ts';
import { sourcesBudgets } from './bundle-size.ts';
import { openList, prepareContext, type Selectors, VIEWPORT, warmUp } from './measure.ts';
import { type Figure, judgeAll, stat, type Verdict } from './report.ts';
import { seedScaleTenant } from './scale.ts';
import { FLOOR_PATH, startBenchServer } from './server.ts';

export const SOURCES_COUNTS = { reflexio: 300, vertesia: 100, bilby: 100 } as const;
export const SOURCES_DELAY_MS = 2_000;
const QUIET_MS = 1_500;

/** A first load's list requests by system, and its list pages (Bilby's distinct cursors). */
export function listRequests(paths: readonly string[]) {
  const of = (pattern: RegExp) => paths.filter((path) => pattern.test(path));
  const bilby = of(/\/bilby\/api\/v1\/conversations(\?|$)/);
  const cursors = new Set(
    bilby.map((path) => new URL(path, 'http://x/').searchParams.get('cursor')),
  );
  return {
    reflexio: { requests: of(/^\/api\/pending_tool_calls(\?|$)/).length, pages: 1 },
    vertesia: { requests: of(/\/vertesia\/api\/v1\/pending-asks(\?|$)/).length, pages: 1 },
    bilby: { requests: bilby.length, pages: Math.max(1, cursors.size) },
  };
}

interface SourcesRun {
  listVisible: number | null;
  perPage: number | null;
  counts: ReturnType<typeof listRequests> | null;
  errors: string[];
}

export interface SourcesResult {
  figures: Figure[];
  verdicts: Verdict[];
  problems: string[];
}

async function bilbyFault(origin: string, tenant: string, spec: object | null) {
  const response = await fetch(`${origin}/bilby/__mock/faults`, {
    method: spec ? 'POST' : 'DELETE',
    headers: { 'content-type': 'application/json', [TENANT_HEADER]: tenant },
    ...(spec ? { body: JSON.stringify(spec) } : {}),
  });
  if (!response.ok) throw new Error(`bilby faults: HTTP ${response.status}`);
}

async function loadOnce(options: {
  browser: Browser;
  origin: string;
  tenant: string;
  url: string;
  selectors: Selectors;
  count: boolean;
}): Promise<SourcesRun> {
  const run: SourcesRun = { listVisible: null, perPage: null, counts: null, errors: [] };
  const context = await options.browser.newContext({ viewport: VIEWPORT });
  try {
    await prepareContext(context, options.origin, options.tenant, options.selectors);
    const paths: string[] = [];
    let lastListAt = Date.now();
    context.on('request', (request) => {
      if (request.method() !== 'GET') return;
      const url = new URL(request.url());
      if (!url.pathname.includes('/api/')) return;
      paths.push(`${url.pathname}${url.search}`);
      lastListAt = Date.now();
    });
    const loaded = await openList(context, options.url);
    run.listVisible = loaded.listVisible;
    if (options.count) {
      // Every system in, then quiet: the first load's requests are all made.
      await loaded.page
        .locator('[data-sources-loading]')
        .waitFor({ state: 'detached', timeout: 30_000 });
      while (Date.now() - lastListAt < QUIET_MS) {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      run.counts = listRequests(paths);
      run.perPage = Math.max(
        ...Object.values(run.counts).map(({ requests, pages }) => requests / pages),
      );
    }
  } catch (error) {
    run.errors.push(error instanceof Error ? error.message : String(error));
  } finally {
    await context.close();
  }
  return run;
}

export async function measureSources(options: {
  browser: Browser;
  distDir: string;
  port: number;
  runs: number;
  selectors: Selectors;
  log: (line: string) => void;
}): Promise<SourcesResult> {
  const tenant = 'sources';
  const server = await startBenchServer({
    distDir: options.distDir,
    port: options.port,
    allSystems: true,
  });
  const { origin } = server;
  const problems: string[] = [];
  const portalRuns: SourcesRun[] = [];
  const delayedRuns: SourcesRun[] = [];
  const floorRuns: SourcesRun[] = [];
  try {
    options.log(
      `Seeding ${SOURCES_COUNTS.reflexio} Reflexio, ${SOURCES_COUNTS.vertesia} Vertesia and ${SOURCES_COUNTS.bilby} Bilby questions at ${origin}…`,
    );
    await seedScaleTenant(origin, tenant, SOURCES_COUNTS);
    const portalUrl = `${origin}/questions`;
    const floorUrl = `${origin}${FLOOR_PATH}scale.html?org=${BILBY_ORGANIZATION_ID}`;
    const common = { browser: options.browser, origin, tenant, selectors: options.selectors };
    await warmUp({ ...common, urls: [portalUrl, floorUrl], loads: 1 });
    for (let run = 1; run <= options.runs; run++) {
      const portal = () => loadOnce({ ...common, url: portalUrl, count: true });
      const delayed = async () => {
        await bilbyFault(origin, tenant, {
          kind: 'latency',
          latencyMs: SOURCES_DELAY_MS,
          count: 1,
          match: { path: '/conversations' },
        });
        try {
          return await loadOnce({ ...common, url: portalUrl, count: false });
        } finally {
          await bilbyFault(origin, tenant, null);
        }
      };
      const floor = () => loadOnce({ ...common, url: floorUrl, count: false });
      // The pages take turns going first, as in the other scenarios.
      const order = run % 2 === 1 ? [portal, delayed, floor] : [floor, delayed, portal];
      const results: SourcesRun[] = [];
      for (const load of order) results.push(await load());
      const [p, d, f] = (run % 2 === 1 ? results : [...results].reverse()) as [
        SourcesRun,
        SourcesRun,
        SourcesRun,
      ];
      portalRuns.push(p);
      delayedRuns.push(d);
      floorRuns.push(f);
      const ms = (value: number | null) => (value === null ? '–' : `${value.toFixed(0)} ms`);
      const counts = p.counts
        ? Object.entries(p.counts)
            .map(([system, { requests, pages }]) => `${system} ${requests}/${pages}`)
            .join(', ')
        : '–';
      options.log(
        `sources run ${run}/${options.runs}  portal ${ms(p.listVisible)}, Bilby 2 s late ${ms(d.listVisible)}, floor ${ms(f.listVisible)}; list requests/pages: ${counts}`,
      );
      for (const [name, result] of [
        ['portal', p],
        ['portal, Bilby late', d],
        ['floor', f],
      ] as const) {
        for (const error of result.errors) problems.push(`sources run ${run}, ${name}: ${error}`);
      }
    }
    const floor = stat(floorRuns.map((entry) => entry.listVisible));
    const last = portalRuns.at(-1)?.counts;
    const figures: Figure[] = [
      {
        id: 'sourcesListVisible',
        label: '3 sources: list visible after navigation',
        unit: 'ms',
        portal: stat(portalRuns.map((entry) => entry.listVisible)),
        floor,
        compare: true,
      },
      {
        id: 'sourcesDelayedListVisible',
        label: "3 sources, Bilby 2 s late: the others' rows visible",
        unit: 'ms',
        portal: stat(delayedRuns.map((entry) => entry.listVisible)),
        floor,
        compare: true,
        note: 'the floor is the same page with no system late',
      },
      {
        id: 'sourcesListRequests',
        label: '3 sources: list requests per list page on a first load (most of any system)',
        unit: 'requests',
        portal: stat(portalRuns.map((entry) => entry.perPage)),
        floor: null,
        ...(last
          ? {
              note: `last run: ${Object.entries(last)
                .map(([system, { requests, pages }]) => `${system} ${requests} for ${pages}`)
                .join(', ')}`,
            }
          : {}),
      },
    ];
    return { figures, verdicts: judgeAll(figures, sourcesBudgets), problems };
  } finally {
    await server.close();
  }
}
