// Measurements in headless Chromium, the same method for the portal and the floor page.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  type Browser,
  type BrowserContext,
  type CDPSession,
  chromium,
  type Page,
  type Response,
} from '@playwright/test';
import { TENANT_COOKIE } from '../mock/app.ts';
import { gzipSize } from './bundle-size';
import { ask, control } from './seed';
import {
  describeThreadTime,
  recordTrace,
  rendererMainThread,
  requestsInTrace,
  threadTime,
  traceWindowMs,
} from './trace';

export interface Selectors {
  /** A question row; the portal virtualizes, so only some of the 500 are in the DOM. */
  row: string;
  /** The attribute of a row holding the question's id. */
  rowIdAttribute: string;
  /** What a reviewer clicks to open a question. */
  rowLink: string;
  /** The open question. */
  dialog: string;
  search: { role: 'searchbox'; name: string };
  /** Typed first, then `searchKey` is the measured keystroke. */
  searchPrefix: string;
  searchKey: string;
}

// Everything the bench assumes about the portal's markup, in one place.
export const PORTAL_SELECTORS: Selectors = {
  row: '[data-question-id]',
  rowIdAttribute: 'data-question-id',
  rowLink: '[data-question-id] a[data-row-link]',
  dialog: '[role="dialog"]',
  search: { role: 'searchbox', name: 'Search' },
  // "service-" matches every seeded question, "service-7" about one in 37.
  searchPrefix: 'service-',
  searchKey: '7',
};

export const MARKS = {
  data: 'qi:list-data',
  renderStart: 'qi:list-render-start',
  rendered: 'qi:list-rendered',
};

/** How long the list probe waits for the rendered mark once rows are on screen. */
const MARK_GRACE_MS = 3000;
/**
 * `--disable-features`: Chromium 156 gives every new window (each run's fresh context) a renderer of
 * its own for the address bar's popup (chrome://omnibox-popup.top-chrome), which loaded its UI for
 * about a second of CPU alongside the page being measured: on a 2-core machine, the JS-heavy page
 * paid for it more than the floor. A reviewer's browser opens that once per window, not per page.
 */
export const LAUNCH_ARGS = [
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
];
export const VIEWPORT = { width: 1280, height: 900 };

interface ListVisible {
  at: number;
  marked: boolean;
  /** Rows in the DOM in that frame (a virtualized list has only those on screen). */
  rows: number;
}

interface Probe {
  listVisible: Promise<ListVisible>;
  interactive: Promise<number>;
  visibility: { at: number; state: string }[];
  blockingTime(before: number): number | null;
  markDelta(from: string, to: string): number | null;
  resourcesBefore(before: number): string[];
  settle(quietMs: number, timeoutMs: number): Promise<boolean>;
  armSearch(key: string, timeoutMs: number): void;
  search?: Promise<{ keydownAt: number | null; paintedAt: number | null; rows: number }>;
  armDrawer(timeoutMs: number): void;
  drawer?: Promise<{ clickAt: number | null; paintedAt: number | null }>;
  timerFires(): Promise<number>;
}

declare global {
  interface Window {
    __bench: Probe;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const probeSource = readFile(new URL('./page-probes.js', import.meta.url), 'utf8');

export async function prepareContext(
  context: BrowserContext,
  origin: string,
  tenant: string,
  selectors: Selectors,
): Promise<void> {
  await context.addCookies([{ name: TENANT_COOKIE, value: tenant, url: origin }]);
  const config = {
    row: selectors.row,
    rowIdAttribute: selectors.rowIdAttribute,
    dialog: selectors.dialog,
    renderedMark: MARKS.rendered,
    markGraceMs: MARK_GRACE_MS,
  };
  await context.addInitScript({
    content: `${await probeSource}\ninstallBenchProbes(${JSON.stringify(config)});`,
  });
}

/** The bench's "JS heap after load" reading: a forced GC, then V8's used size. */
export async function heapAfterGc(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  return (await cdp.send('Runtime.getHeapUsage')).usedSize;
}

const isApi = (url: string) => new URL(url).pathname.startsWith('/api/');

export interface LoadedPage {
  page: Page;
  cdp: CDPSession;
  /** Date.now() of every request to /api/ the page sent. */
  apiRequests: number[];
  listVisible: number;
  marked: boolean;
  rowsWhenVisible: number;
}

/** Opens `url` in the context and waits until the list is visible (see page-probes.js). */
export async function openList(context: BrowserContext, url: string): Promise<LoadedPage> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const apiRequests: number[] = [];
  page.on('request', (request) => {
    if (isApi(request.url())) apiRequests.push(Date.now());
  });
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  const visible = await withTimeout(
    page.evaluate(() => window.__bench.listVisible),
    30_000,
    `list visible at ${url}`,
  );
  return {
    page,
    cdp,
    apiRequests,
    listVisible: visible.at,
    marked: visible.marked,
    rowsWhenVisible: visible.rows,
  };
}

/**
 * Unmeasured loads of each page before the runs: the first requests run the server's code cold
 * (Node compiles it as it goes), which would slow whichever page the first runs measure.
 */
export async function warmUp(options: {
  browser: Browser;
  origin: string;
  tenant: string;
  selectors: Selectors;
  urls: string[];
  loads: number;
}): Promise<void> {
  for (let load = 0; load < options.loads; load++) {
    for (const url of options.urls) {
      const context = await options.browser.newContext({ viewport: VIEWPORT });
      try {
        await prepareContext(context, options.origin, options.tenant, options.selectors);
        await openList(context, url);
      } finally {
        await context.close();
      }
    }
  }
}

export interface AssetLoad {
  url: string;
  kind: 'js' | 'css';
  gzip: number;
}

export interface TickCost {
  script: number;
  layoutPaint: number;
  total: number;
  windowMs: number;
  /** Attempts needed to get a window with no request to /api/ in it. */
  attempts: number;
  summary: string;
  events: object[];
}

export interface PageRun {
  listVisible: number | null;
  /** The same page opened again in the same browser: HTTP cache and code cache primed. */
  listVisibleWarm: number | null;
  /** A click on a row opens it from here on (see page-probes.js). */
  interactive: number | null;
  /** False: the page never set the rendered mark, so `listVisible` is rows on screen alone. */
  marked: boolean | null;
  /** Rows in the DOM when the list was first visible: what "render" rendered. */
  rowsWhenVisible: number | null;
  blockingTime: number | null;
  /** The list's rows: start of their first render to their commit (the floor: its row loop). */
  renderScript: number | null;
  /** List parsed to rows committed, whatever the page did in between (informational). */
  dataToRendered: number | null;
  heapAfterLoad: number | null;
  initialJs: number | null;
  initialCss: number | null;
  assets: AssetLoad[];
  tickScript: number | null;
  tickLayoutPaint: number | null;
  tickTotal: number | null;
  tick: TickCost | null;
  searchToPaint?: number | null;
  searchRows?: number | null;
  drawerOpen?: number | null;
  errors: string[];
}

export interface RunOptions {
  browser: Browser;
  origin: string;
  tenant: string;
  url: string;
  selectors: Selectors;
  /** The portal's poll interval, to keep polls out of the measured windows. */
  pollIntervalMs: number | null;
  tickWindowMs: number;
  interactions: boolean;
  /** Trace the countdown tick (the scale scenario has no budget for it and skips it). */
  tick?: boolean;
}

/**
 * Waits, if needed, until `needMs` fit before the next poll: polls start together with the
 * page's lists and repeat every `pollIntervalMs`, so the next one is due one interval after the
 * last request. Waits past a poll that is due soon (plus time for its answer to be drawn).
 */
async function beforeNextPoll(loaded: LoadedPage, pollIntervalMs: number | null, needMs: number) {
  const last = loaded.apiRequests.at(-1);
  if (pollIntervalMs === null || last === undefined) return;
  let due = last + pollIntervalMs;
  while (due < Date.now()) due += pollIntervalMs;
  if (Date.now() + needMs > due - 300) await sleep(due - Date.now() + 1500);
}

async function measureTick(
  loaded: LoadedPage,
  options: RunOptions,
): Promise<TickCost & { apiInWindow: string[] }> {
  let attempts = 0;
  for (;;) {
    attempts += 1;
    await beforeNextPoll(loaded, options.pollIntervalMs, options.tickWindowMs + 1000);
    const taskDuration = async () =>
      (await loaded.cdp.send('Performance.getMetrics')).metrics.find(
        (metric) => metric.name === 'TaskDuration',
      )?.value ?? 0;
    await loaded.cdp.send('Performance.enable');
    const tasksBefore = await taskDuration();
    const events = await recordTrace(loaded.cdp, options.tickWindowMs);
    const tasksMs = ((await taskDuration()) - tasksBefore) * 1000;
    await loaded.cdp.send('Performance.disable');
    const apiInWindow = requestsInTrace(events).filter(isApi);
    if (apiInWindow.length > 0 && attempts < 3) continue;
    const thread = rendererMainThread(events, loaded.page.url());
    if (!thread) throw new Error('the page’s renderer main thread is not in the trace');
    const windowMs = traceWindowMs(events);
    const time = threadTime(events, thread);
    const ticks = windowMs / 1000;
    return {
      script: time.script / ticks,
      layoutPaint: time.layoutPaint / ticks,
      total: (time.script + time.layoutPaint) / ticks,
      windowMs,
      attempts,
      summary: `${describeThreadTime(time, windowMs)}\n    cross-check: CDP Performance.getMetrics TaskDuration over the same window ${tasksMs.toFixed(2)} ms (busy in the trace ${time.busy.toFixed(2)} ms)`,
      events,
      apiInWindow,
    };
  }
}

async function measureSearch(loaded: LoadedPage, selectors: Selectors) {
  const { page } = loaded;
  const box = page.getByRole(selectors.search.role, { name: selectors.search.name });
  await box.click();
  await box.fill(selectors.searchPrefix);
  await page.evaluate(() => window.__bench.settle(500, 5000));
  await page.evaluate((key) => window.__bench.armSearch(key, 5000), selectors.searchKey);
  await box.press(selectors.searchKey);
  const result = await withTimeout(
    page.evaluate(() => window.__bench.search),
    10_000,
    'search',
  );
  // Back to the whole list for what follows.
  await box.fill('');
  await page.evaluate(() => window.__bench.settle(500, 5000));
  const ms =
    result?.keydownAt != null && result.paintedAt != null
      ? result.paintedAt - result.keydownAt
      : null;
  return { ms, rows: result?.rows ?? null };
}

async function measureDrawer(loaded: LoadedPage, selectors: Selectors): Promise<number | null> {
  const { page } = loaded;
  await page.evaluate(() => window.__bench.armDrawer(10_000));
  await page.locator(selectors.rowLink).first().click();
  const result = await withTimeout(
    page.evaluate(() => window.__bench.drawer),
    15_000,
    'drawer',
  );
  await page.keyboard.press('Escape');
  return result?.clickAt != null && result.paintedAt != null
    ? result.paintedAt - result.clickAt
    : null;
}

/** One run on one page in a fresh, uncached context. A failing step is recorded, not fatal. */
export async function runPage(options: RunOptions): Promise<PageRun> {
  const run: PageRun = {
    listVisible: null,
    listVisibleWarm: null,
    interactive: null,
    marked: null,
    rowsWhenVisible: null,
    blockingTime: null,
    renderScript: null,
    dataToRendered: null,
    heapAfterLoad: null,
    initialJs: null,
    initialCss: null,
    assets: [],
    tickScript: null,
    tickLayoutPaint: null,
    tickTotal: null,
    tick: null,
    errors: [],
  };
  const step = async (name: string, work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      run.errors.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const context = await options.browser.newContext({ viewport: VIEWPORT });
  try {
    await prepareContext(context, options.origin, options.tenant, options.selectors);
    const responses: { response: Response; kind: 'js' | 'css' }[] = [];
    context.on('response', (response) => {
      const type = response.headers()['content-type'] ?? '';
      if (type.includes('javascript')) responses.push({ response, kind: 'js' });
      else if (type.includes('text/css')) responses.push({ response, kind: 'css' });
    });

    const page = await openList(context, options.url).catch((error: unknown) => {
      run.errors.push(`load: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    });
    if (!page) return run;
    run.listVisible = page.listVisible;
    await step('interactive', async () => {
      run.interactive = await withTimeout(
        page.page.evaluate(() => window.__bench.interactive),
        30_000,
        'interactive',
      );
    });
    run.marked = page.marked;
    run.rowsWhenVisible = page.rowsWhenVisible;

    // Long tasks are reported asynchronously, and heap after load means after load settles.
    const now = await page.page.evaluate(() => performance.now());
    await sleep(page.listVisible + 1000 - now);

    await step('load figures', async () => {
      run.blockingTime = await page.page.evaluate(
        (before) => window.__bench.blockingTime(before),
        page.listVisible,
      );
      const markDelta = (from: string, to: string) =>
        page.page.evaluate(
          ([a, b]) => window.__bench.markDelta(a as string, b as string),
          [from, to],
        );
      run.renderScript = await markDelta(MARKS.renderStart, MARKS.rendered);
      run.dataToRendered = await markDelta(MARKS.data, MARKS.rendered);
      const loadedUrls = new Set(
        await page.page.evaluate(
          (before) => window.__bench.resourcesBefore(before),
          page.listVisible,
        ),
      );
      for (const { response, kind } of responses) {
        if (!loadedUrls.has(response.url())) continue;
        run.assets.push({ url: response.url(), kind, gzip: gzipSize(await response.body()) });
      }
      const sum = (kind: 'js' | 'css') =>
        run.assets.filter((asset) => asset.kind === kind).reduce((t, a) => t + a.gzip, 0);
      run.initialJs = sum('js');
      run.initialCss = sum('css');
    });
    if (options.tick !== false)
      await step('countdown tick', async () => {
        const tick = await measureTick(page, options);
        if (tick.apiInWindow.length > 0) {
          throw new Error(
            `requests to /api/ in every window tried: ${tick.apiInWindow.join(', ')}`,
          );
        }
        run.tick = tick;
        run.tickScript = tick.script;
        run.tickLayoutPaint = tick.layoutPaint;
        run.tickTotal = tick.total;
      });
    // After the trace: a forced GC just before it made the floor page collect during the
    // window (3–5 ms a second instead of 0.2), which is the bench's doing, not the page's.
    await step('heap', async () => {
      run.heapAfterLoad = await heapAfterGc(page.cdp);
    });
    if (options.interactions) {
      await step('search', async () => {
        await beforeNextPoll(page, options.pollIntervalMs, 3000);
        const search = await measureSearch(page, options.selectors);
        run.searchToPaint = search.ms;
        run.searchRows = search.rows;
        if (search.ms === null) throw new Error('the list did not change after the keystroke');
      });
      await step('drawer', async () => {
        await beforeNextPoll(page, options.pollIntervalMs, 2000);
        run.drawerOpen = await measureDrawer(page, options.selectors);
        if (run.drawerOpen === null) throw new Error('no dialog with a size appeared');
      });
    }
    // A second visit: the same page opened again in this browser, once to let the browser keep
    // the compiled code (V8 caches a script's code from its second run) and once measured.
    await step('warm visit', async () => {
      await page.page.close();
      await (await openList(context, options.url)).page.close();
      const warm = await openList(context, options.url);
      run.listVisibleWarm = warm.listVisible;
    });
    return run;
  } finally {
    await context.close();
  }
}

export interface RequestsResult {
  visiblePerMinute: number;
  hiddenPerMinute: number | null;
  windowSeconds: number;
  mechanism: string;
  evidence: string[];
}

/**
 * A Chromium of our own, driven over CDP without Playwright's default overrides. Playwright
 * enables focus emulation on every page of the contexts it creates, and that keeps a page
 * visible whatever happens to its tab or window; pages of the browser's default context, attached
 * with `noDefaults`, get none.
 */
async function launchUnemulated(executablePath: string | null) {
  const userDataDir = await mkdtemp(path.join(os.tmpdir(), 'qi-bench-chromium-'));
  const executable = executablePath ?? chromium.executablePath();
  const child: ChildProcess = spawn(
    executable,
    [
      '--headless',
      '--no-sandbox',
      '--no-first-run',
      '--remote-debugging-port=0',
      `--user-data-dir=${userDataDir}`,
      ...LAUNCH_ARGS,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const endpoint = await withTimeout(
    new Promise<string>((resolve, reject) => {
      let output = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /DevTools listening on (ws:\/\/\S+)/.exec(output);
        if (match) resolve(match[1] as string);
      });
      child.once('exit', (code) => reject(new Error(`Chromium exited (${code}): ${output}`)));
    }),
    30_000,
    'Chromium start',
  );
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const browser = await chromium.connectOverCDP(endpoint, { noDefaults: true });
  return {
    browser,
    async close() {
      await browser.close().catch(() => {});
      child.kill();
      await withTimeout(exited, 10_000, 'Chromium exit').catch(() => child.kill('SIGKILL'));
      await rm(userDataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }).catch(
        () => {},
      );
    },
  };
}

/**
 * Requests to /api/ per minute while the tab is visible and idle, then while another tab is in
 * front of it. The page itself must report `document.visibilityState === 'hidden'`, and its
 * timers must still fire (hidden, not frozen).
 */
export async function measureRequests(options: {
  executablePath: string | null;
  origin: string;
  tenant: string;
  selectors: Selectors;
  windowSeconds: number;
}): Promise<RequestsResult> {
  const own = await launchUnemulated(options.executablePath);
  const evidence: string[] = [];
  try {
    const context = own.browser.contexts()[0] as BrowserContext;
    await prepareContext(context, options.origin, options.tenant, options.selectors);
    const loaded = await openList(context, `${options.origin}/questions`);
    const { page } = loaded;
    await sleep(2000);
    const count = async () => {
      const from = Date.now();
      await sleep(options.windowSeconds * 1000);
      return loaded.apiRequests.filter((at) => at >= from).length;
    };
    const state = () => page.evaluate(() => document.visibilityState);
    if ((await state()) !== 'visible') throw new Error('the page is not visible to begin with');

    const visible = await count();
    evidence.push(`visible: ${visible} requests to /api/ in ${options.windowSeconds} s`);

    let mechanism = 'none';
    const cover = await context.newPage();
    await sleep(300);
    if ((await state()) === 'hidden') {
      mechanism = 'another tab opened in front of it in the same window (Target.createTarget)';
    } else {
      await cover.close();
      const { windowId } = await loaded.cdp.send('Browser.getWindowForTarget');
      await loaded.cdp.send('Browser.setWindowBounds', {
        windowId,
        bounds: { windowState: 'minimized' },
      });
      await sleep(300);
      if ((await state()) === 'hidden')
        mechanism = 'its window minimized (Browser.setWindowBounds)';
    }
    if (mechanism === 'none') {
      evidence.push('neither another tab in front nor a minimized window hid the page');
      return {
        visiblePerMinute: (visible / options.windowSeconds) * 60,
        hiddenPerMinute: null,
        windowSeconds: options.windowSeconds,
        mechanism,
        evidence,
      };
    }
    const hidden = await count();
    const endState = await state();
    const changes = await page.evaluate(() => window.__bench.visibility);
    const timer = await withTimeout(
      page.evaluate(() => window.__bench.timerFires()),
      5000,
      'a timer in the hidden page',
    );
    evidence.push(
      `hidden: ${hidden} requests to /api/ in ${options.windowSeconds} s`,
      `the page reported visibilitychange → ${changes.map((change) => change.state).join(' → ')}; visibilityState at the end: ${endState}`,
      `a 10 ms timer in the hidden page fired after ${timer.toFixed(0)} ms: hidden (Chromium runs a hidden tab's timers at most once a second), not frozen`,
    );
    if (endState !== 'hidden') throw new Error('the page became visible during the hidden window');
    return {
      visiblePerMinute: (visible / options.windowSeconds) * 60,
      hiddenPerMinute: (hidden / options.windowSeconds) * 60,
      windowSeconds: options.windowSeconds,
      mechanism,
      evidence,
    };
  } finally {
    await own.close();
  }
}

export interface SoakResult {
  minutes: number;
  warmupMinutes: number;
  /** Right after the first poll, before the warm-up: what the warm-up added is reported apart. */
  heapLoaded: number;
  heapStart: number;
  /** Heap after a forced GC at the end of each soak minute. */
  heapByMinute: number[];
  heapEnd: number;
  growthPercent: number;
  asked: number;
  resolved: number;
}

/**
 * A visible portal tab left open while an agent asks a question every `askEveryMs` and another
 * reviewer answers the oldest pending one, so the inbox stays at its size and what grows is
 * what the page keeps. Forced GC before each heap reading. The same activity runs for
 * `warmupMinutes` first: V8 compiles hot code (optimized code lives on the JS heap, about 0.4 MB
 * in the first minute and bounded), lazily loaded chunks arrive; that is not what a soak looks
 * for, and the warm-up's growth is reported on its own.
 */
export async function measureSoak(options: {
  browser: Browser;
  origin: string;
  tenant: string;
  selectors: Selectors;
  minutes: number;
  warmupMinutes: number;
  askEveryMs: number;
  pendingIds: string[];
  pollIntervalMs: number | null;
}): Promise<SoakResult> {
  const context = await options.browser.newContext({ viewport: VIEWPORT });
  const queue = [...options.pendingIds];
  let asked = 0;
  let resolved = 0;
  try {
    await prepareContext(context, options.origin, options.tenant, options.selectors);
    const loaded = await openList(context, `${options.origin}/questions`);
    await sleep((options.pollIntervalMs ?? 0) + 2000);
    const heapLoaded = await heapAfterGc(loaded.cdp);
    const agentTurn = async () => {
      const id = await ask(options.origin, options.tenant, {
        question: `Soak question ${asked}: may the nightly job ${asked} restart service-${asked % 37}?`,
        answer_format: 'yes/no',
        tags: ['soak', `team-${asked % 9}`],
        user_id: `user${asked % 23}@example.com`,
        expires_in_seconds: 3600,
      });
      asked += 1;
      queue.push(id);
      while (queue.length > 0) {
        const oldest = queue.shift() as string;
        try {
          await control(options.origin, options.tenant, `questions/${oldest}/resolve`, {
            answer: 'yes',
          });
          resolved += 1;
          return;
        } catch {
          // Expired meanwhile: answer the next one.
        }
      }
    };
    const activity = async (minutes: number) => {
      const end = Date.now() + minutes * 60_000;
      while (Date.now() < end) {
        const turn = Date.now();
        await agentTurn();
        await sleep(Math.min(options.askEveryMs - (Date.now() - turn), end - Date.now()));
      }
    };
    await activity(options.warmupMinutes);
    const heapStart = await heapAfterGc(loaded.cdp);
    const heapByMinute: number[] = [];
    for (let minute = 0; minute < options.minutes; minute++) {
      await activity(Math.min(1, options.minutes - minute));
      if (minute < options.minutes - 1) heapByMinute.push(await heapAfterGc(loaded.cdp));
    }
    // Let the last poll land before the final reading.
    await sleep(2000);
    const heapEnd = await heapAfterGc(loaded.cdp);
    heapByMinute.push(heapEnd);
    return {
      minutes: options.minutes,
      warmupMinutes: options.warmupMinutes,
      heapLoaded,
      heapStart,
      heapByMinute,
      heapEnd,
      growthPercent: ((heapEnd - heapStart) / heapStart) * 100,
      asked,
      resolved,
    };
  } finally {
    await context.close();
  }
}
