// Presence and claims (issue 28): what one reviewer's browser with three tabs of the inbox costs
// the portal server. The real server (`server/start.ts --production`, REVIEWER_HEADER set, the
// embedded database in a temporary DATA_DIR) runs as its own process behind a small counting
// proxy on another port; the browser talks to the proxy, which forwards every byte as it comes
// (Server-Sent Events included) and notes each `portal-api/team/…` request with its body, and
// each event stream the server answered, from its 200 to the moment its connection closed.
//
// One run, one browser context as one reviewer (`X-Forwarded-Email`), three visible tabs:
//   1. from the first tab's load until the leading tab closes, the most event streams held at once;
//   2. a window with no question open: presence requests a minute;
//   3. the leading tab (the one whose page asked for the stream) closes: the next one takes over,
//      and from then until the end of the run, the most streams held at once;
//   4. a window with one question open in one tab: presence requests a minute;
//   4b. a window with another question open in a second tab too: presence requests a minute
//      (the tabs of one browser send together, through the tab holding the presence lock);
//   5. a window of continuous typing into that question's answer (a key every 100 ms): typing
//      reports and all presence requests a minute, the shortest gap between two typing reports,
//      and how many presence bodies of the whole run hold any word of what was typed.
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { TENANT_COOKIE } from '../mock/app.ts';
import { startPortalProcess } from '../scripts/portal-process.ts';
import { budgets, teamBudgets } from './bundle-size.ts';
import { type Figure, figuresTable, judgeAll, stat, type Verdict } from './report.ts';
import { ask, control } from './seed.ts';

/** The identity header the bench's server trusts (REVIEWER_HEADER), as an SSO proxy sets it. */
export const REVIEWER_HEADER = 'X-Forwarded-Email';
/** What the reviewer types, over and over; none of its words may reach a presence body. */
export const TYPED_TEXT = 'Quokka zephyr marmalade: hold the canary in fjord ';
export const TYPED_WORDS = ['quokka', 'zephyr', 'marmalade', 'canary', 'fjord'];
const KEY_DELAY_MS = 100;
const QUESTIONS = 6;
const TABS = 3;
const SETTLE_MS = 3_000;
const TAKEOVER_TIMEOUT_MS = 20_000;

/** One `portal-api/team/…` request as the proxy passed it to the server. */
export interface TeamRecord {
  /** When its headers reached the proxy (ms since the epoch). */
  at: number;
  method: string;
  /** What follows `portal-api/team/`: `presence`, `events`, `state`, `claim`, `release`. */
  route: string;
  reviewer: string;
  body: string;
}

/** One event stream the server answered with 200, from then until its connection closed. */
export interface StreamSpan {
  reviewer: string;
  opened: number;
  closed: number | null;
}

// ---- Counting and judging (pure: bench/team.test.ts). ----

/** Streams of `reviewer` held at instant `t`. */
export function heldAt(spans: readonly StreamSpan[], reviewer: string, t: number): number {
  return spans.filter(
    (s) => s.reviewer === reviewer && s.opened <= t && (s.closed === null || s.closed > t),
  ).length;
}

/** The most streams of `reviewer` held at once at any instant of [from, to]. */
export function mostHeld(
  spans: readonly StreamSpan[],
  reviewer: string,
  from: number,
  to: number,
): number {
  // The count only rises when a stream opens: checking `from` and every opening after it is enough.
  const instants = [
    from,
    ...spans
      .filter((s) => s.reviewer === reviewer && s.opened > from && s.opened <= to)
      .map((s) => s.opened),
  ];
  return Math.max(...instants.map((t) => heldAt(spans, reviewer, t)));
}

/** Presence requests (`POST portal-api/team/presence`) of `reviewer` in [from, to). */
export function presenceIn(
  records: readonly TeamRecord[],
  reviewer: string,
  from: number,
  to: number,
): TeamRecord[] {
  return records.filter(
    (r) =>
      r.reviewer === reviewer &&
      r.route === 'presence' &&
      r.method === 'POST' &&
      r.at >= from &&
      r.at < to,
  );
}

/** Whether a presence body says the reviewer is typing. */
export function isTypingReport(record: TeamRecord): boolean {
  try {
    const body: unknown = JSON.parse(record.body);
    if (typeof body !== 'object' || body === null) return false;
    // One tab's message, or every tab's in one (`tabs`).
    const { typing, tabs } = body as { typing?: unknown; tabs?: unknown };
    return (
      typing === true ||
      (Array.isArray(tabs) &&
        tabs.some((tab) => typeof tab === 'object' && tab !== null && tab.typing === true))
    );
  } catch {
    return false;
  }
}

/** How many open questions a presence body names (one tab's message, or every tab's). */
export function namesQuestions(record: TeamRecord | undefined): number {
  if (!record) return 0;
  try {
    const body = JSON.parse(record.body) as { question?: unknown; tabs?: unknown };
    const items = Array.isArray(body.tabs) ? body.tabs : [body];
    return items.filter(
      (item) => typeof item === 'object' && item !== null && item.question != null,
    ).length;
  } catch {
    return 0;
  }
}

export function perMinute(count: number, from: number, to: number): number {
  return to > from ? (count * 60_000) / (to - from) : 0;
}

/** The shortest time between two consecutive instants, or null with fewer than two. */
export function shortestGap(instants: readonly number[]): number | null {
  const sorted = [...instants].sort((a, b) => a - b);
  let shortest: number | null = null;
  for (let i = 1; i < sorted.length; i++) {
    const gap = (sorted[i] as number) - (sorted[i - 1] as number);
    if (shortest === null || gap < shortest) shortest = gap;
  }
  return shortest;
}

/** Bodies that hold any of `words` (case-insensitive). */
export function bodiesWith(records: readonly TeamRecord[], words: readonly string[]): number {
  return records.filter((r) => words.some((w) => r.body.toLowerCase().includes(w.toLowerCase())))
    .length;
}

/** What one run measured. */
export interface TeamRun {
  windowSeconds: number;
  /** Tabs whose document said `visible` when the leading one closed. */
  visibleTabs: number;
  /** The most streams held at once, from the first tab's load until the leading tab closed. */
  streamsThreeTabs: number;
  /** A stream opened after the leading tab closed (another tab took it over). */
  tookOver: boolean;
  /** From closing the leading tab to the next stream's 200 at the proxy. */
  takeoverMs: number | null;
  /** The most streams held at once from the leading tab's close to the end of the run. */
  streamsAfterClose: number;
  /** Presence requests a minute with no question open (3 tabs). */
  idlePerMinute: number;
  /** Presence requests a minute with one question open in one tab (2 tabs left). */
  openPerMinute: number;
  openRequests: number;
  /** Presence requests a minute with a question open in each of two tabs. */
  twoOpenPerMinute: number;
  twoOpenRequests: number;
  /** The last request of that window named both questions (both tabs counted). */
  twoOpenBoth: boolean;
  /** Presence requests that said `typing: true`, a minute, while typing continuously. */
  typingReportsPerMinute: number;
  typingReports: number;
  /** All presence requests a minute while typing (typing reports and heartbeats). */
  typingPerMinute: number;
  /** Shortest time between two typing reports as they reached the proxy. */
  typingGapMs: number | null;
  /** Characters the answer box held at the end (the typing really happened). */
  typedChars: number;
  /** Keys typed a second over the typing window, as sent. */
  keysPerSecond: number;
  /** Presence bodies of the whole run holding a word of what was typed. */
  leakedBodies: number;
  presenceBodies: number;
  /** Every team request of the run, by route ("POST presence": 12, …). */
  requests: Record<string, number>;
}

export interface TeamResult {
  runs: TeamRun[];
  figures: Figure[];
  verdicts: Verdict[];
  problems: string[];
}

const ofRuns = (runs: readonly TeamRun[], key: keyof TeamRun) =>
  stat(runs.map((run) => run[key] as number | null));

/** Medians over the runs, as figures; the ids with a budget are those of `teamBudgets`. */
export function teamFigures(runs: readonly TeamRun[], initialJsBytes?: number): Figure[] {
  const figure = (
    id: string,
    label: string,
    unit: Figure['unit'],
    key: keyof TeamRun,
    note?: string,
  ): Figure => ({
    id,
    label,
    unit,
    portal: ofRuns(runs, key),
    floor: null,
    ...(note ? { note } : {}),
  });
  const windowSeconds = runs[0]?.windowSeconds ?? 0;
  return [
    ...(initialJsBytes === undefined
      ? []
      : [
          {
            id: 'initialJs',
            label: 'initial JS, gzipped',
            unit: 'bytes' as const,
            portal: stat([initialJsBytes]),
            floor: null,
          },
        ]),
    figure(
      'teamStreamsThreeTabs',
      '3 tabs: event streams held at once',
      'connections',
      'streamsThreeTabs',
    ),
    figure(
      'teamStreamsAfterClose',
      'after the leading tab closes: event streams held at once',
      'connections',
      'streamsAfterClose',
    ),
    figure('teamTakeover', 'leading tab closed → next stream open', 'ms', 'takeoverMs'),
    figure(
      'teamPresenceIdle',
      'presence requests, no question open',
      'requests/min',
      'idlePerMinute',
      `${windowSeconds} s window, 3 tabs`,
    ),
    figure(
      'teamPresenceOpen',
      'presence requests, one question open',
      'requests/min',
      'openPerMinute',
      `${windowSeconds} s window from the click that opens it (the first report counted)`,
    ),
    figure(
      'teamPresenceTwoOpen',
      'presence requests, a question open in each of two tabs',
      'requests/min',
      'twoOpenPerMinute',
      `${windowSeconds} s window from the click that opens the second`,
    ),
    figure(
      'teamTypingReports',
      'typing reports while typing continuously',
      'requests/min',
      'typingReportsPerMinute',
      `${windowSeconds} s of typing, a key every ${KEY_DELAY_MS} ms (${stat(runs.map((r) => r.keysPerSecond))?.median.toFixed(1) ?? '–'} keys a second as sent)`,
    ),
    figure(
      'teamPresenceTyping',
      'presence requests while typing continuously (reports + heartbeats)',
      'requests/min',
      'typingPerMinute',
    ),
    figure('teamTypingGap', 'shortest gap between two typing reports', 'ms', 'typingGapMs'),
    figure('teamTypedText', 'presence bodies holding typed text', 'requests', 'leakedBodies'),
  ];
}

/**
 * The bounds (`teamBudgets`, and `initialJs` when its size is given), plus what a median
 * cannot say: in every run another tab took the stream over, and each window measured something
 * (typing was reported, the open question was, the three tabs were visible): a run that measured
 * nothing must not pass.
 */
export function judgeTeam(runs: readonly TeamRun[], initialJsBytes?: number): Verdict[] {
  const figures = teamFigures(runs, initialJsBytes);
  const list = [
    ...(initialJsBytes === undefined ? [] : budgets.filter((b) => b.id === 'initialJs')),
    ...teamBudgets,
  ];
  const every = (id: string, label: string, ok: (run: TeamRun) => boolean, what: string) => {
    const good = runs.filter(ok).length;
    return {
      id,
      label,
      limit: 'every run',
      value: `${good} of ${runs.length}`,
      status: runs.length > 0 && good === runs.length ? 'PASS' : 'FAIL',
      ...(good < runs.length ? { note: what } : {}),
    } satisfies Verdict;
  };
  return [
    ...judgeAll(figures, list),
    every(
      'teamTookOver',
      'leading tab closed: another tab took the stream over',
      (run) => run.tookOver,
      `no stream opened within ${TAKEOVER_TIMEOUT_MS / 1000} s of the leading tab closing`,
    ),
    every(
      'teamMeasured',
      'every window measured something (3 tabs visible, reports while open and typing)',
      (run) =>
        run.visibleTabs === TABS &&
        run.openRequests > 0 &&
        run.twoOpenRequests > 0 &&
        run.twoOpenBoth &&
        run.typingReports > 0 &&
        run.typedChars > 0,
      'a tab was not visible, the open questions or the typing sent no presence at all, or the last message with two questions open did not name both',
    ),
  ];
}

// ---- The server and the counting proxy. ----

const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection'];

function withoutHopByHop(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const copy: http.OutgoingHttpHeaders = { ...headers };
  for (const name of HOP_BY_HOP) delete copy[name];
  return copy;
}

export interface CountingProxy {
  origin: string;
  port: number;
  records: TeamRecord[];
  streams: StreamSpan[];
  close(): Promise<void>;
}

/**
 * A reverse proxy to `target` that passes every request and response through as it comes (the
 * Host header too, as nginx with `proxy_set_header Host $host` would) and notes the team's.
 */
export async function startCountingProxy(target: {
  host: string;
  port: number;
}): Promise<CountingProxy> {
  const records: TeamRecord[] = [];
  const streams: StreamSpan[] = [];
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const at = Date.now();
    const pathname = new URL(req.url ?? '/', 'http://proxy').pathname;
    const route = /\/portal-api\/team\/([^/]+)$/.exec(pathname)?.[1] ?? null;
    const reviewer = String(req.headers[REVIEWER_HEADER.toLowerCase()] ?? '');
    const chunks: Buffer[] = [];
    const upstream = http.request(
      {
        host: target.host,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: withoutHopByHop(req.headers),
        agent,
      },
      (response) => {
        res.writeHead(response.statusCode ?? 502, withoutHopByHop(response.headers));
        res.flushHeaders();
        if (
          route === 'events' &&
          response.statusCode === 200 &&
          String(response.headers['content-type']).startsWith('text/event-stream')
        ) {
          const span: StreamSpan = { reviewer, opened: Date.now(), closed: null };
          streams.push(span);
          res.once('close', () => {
            span.closed = Date.now();
          });
        }
        response.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    // The browser went away (a closed tab's stream): so does the request to the server.
    res.once('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    if (route) req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => {
      if (route) {
        records.push({
          at,
          method: req.method ?? '',
          route,
          reviewer,
          body: Buffer.concat(chunks).toString('utf8'),
        });
      }
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    records,
    streams,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        agent.destroy();
      }),
  };
}

interface BenchPortal {
  origin: string;
  close(): Promise<void>;
}

/**
 * The environment of a bench's portal server on `port` of 127.0.0.1: this process's, with quiet
 * empty mocks and the bench's identity header; `settings` on top, one given as undefined removed.
 */
export function benchServerEnv(
  port: number,
  settings: Record<string, string | undefined>,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    REVIEWER_HEADER,
    MOCK_SEED: 'empty',
    MOCK_SIMULATOR_SECONDS: '0',
    MOCK_LATENCY_MS: '0',
    BASE_PATH: undefined,
    REVIEWER_NAME_HEADER: undefined,
    REFLEXIO_URL: undefined,
    ...settings,
  };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  return env;
}

/** `server/start.ts --production` (it serves `<root>/dist`), as e2e/team.spec.ts starts it. */
async function startPortal(root: string, port: number, allowedHost: string): Promise<BenchPortal> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'qi-bench-team-'));
  const env = benchServerEnv(port, {
    DATA_DIR: dataDir,
    ALLOWED_HOSTS: allowedHost,
    DATABASE_URL: undefined,
  });
  const server = await startPortalProcess(env, { cwd: root });
  return {
    origin: `http://127.0.0.1:${port}`,
    close: async () => {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

// ---- One run. ----

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * Waits until `from + windowMs` has passed and returns exactly that end: a window is then always
 * `windowMs` long. (Timers may fire a millisecond early by Date.now(): 3 requests in 29,999 ms
 * read 6.0002 a minute, over a bound of 6 the page keeps exactly.)
 */
async function windowEnd(from: number, windowMs: number): Promise<number> {
  const end = from + windowMs;
  while (Date.now() < end) await sleep(end - Date.now() + 1);
  return end;
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() >= until) return false;
    await sleep(50);
  }
  return true;
}

async function runOnce(options: {
  browser: Browser;
  portal: string;
  proxy: CountingProxy;
  run: number;
  windowSeconds: number;
  log: (line: string) => void;
}): Promise<TeamRun> {
  const { browser, proxy, run } = options;
  const windowMs = options.windowSeconds * 1000;
  const tenant = `team-bench-${run}-${Date.now()}`;
  const reviewer = `bench-${run}-${Date.now()}@example.com`;
  // The agents' side goes through the portal too, which wants an identity on every write.
  const operator = { [REVIEWER_HEADER]: `operator-${run}@example.com` };
  await control(options.portal, tenant, 'reset', { seed: 'empty' }, operator);
  for (let i = 0; i < QUESTIONS; i++) {
    await ask(
      options.portal,
      tenant,
      {
        question: `Team bench ${i}: may the rollout of service-${i} continue?`,
        answer_format: 'yes/no',
        expires_in_seconds: 3 * 3600,
      },
      operator,
    );
  }
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    extraHTTPHeaders: { [REVIEWER_HEADER]: reviewer },
  });
  try {
    await context.addCookies([{ name: TENANT_COOKIE, value: tenant, url: proxy.origin }]);
    // Answer and next would move to another question when an answer goes; none goes here.
    await context.addInitScript(() => localStorage.setItem('qi:answer-and-next', 'off'));
    const streamPages = new Set<Page>();
    const loadStarted = Date.now();
    const pages: Page[] = [];
    for (let t = 0; t < TABS; t++) {
      const page = await context.newPage();
      page.on('request', (request) => {
        if (/\/portal-api\/team\/events$/.test(new URL(request.url()).pathname)) {
          streamPages.add(page);
        }
      });
      await page.goto(`${proxy.origin}/questions`);
      await page.locator('[data-question-id]').first().waitFor({ timeout: 60_000 });
      pages.push(page);
    }
    // Each tab's presence part is in once its bar is; the stream is open once the server said 200.
    for (const page of pages) await page.getByTestId('claimed-filter').waitFor({ timeout: 30_000 });
    if (!(await waitFor(() => heldAt(proxy.streams, reviewer, Date.now()) > 0, 20_000))) {
      throw new Error('no event stream opened within 20 s of the three tabs loading');
    }
    await sleep(SETTLE_MS);

    // No question open: presence requests.
    const idleFrom = Date.now();
    const idleTo = await windowEnd(idleFrom, windowMs);

    // The leading tab closes; the next takes the lock and opens the stream.
    const leader = [...streamPages].at(-1) ?? (pages[0] as Page);
    const visibleTabs = (
      await Promise.all(pages.map((p) => p.evaluate(() => document.visibilityState)))
    ).filter((state) => state === 'visible').length;
    const closedAt = Date.now();
    const streamsThreeTabs = mostHeld(proxy.streams, reviewer, loadStarted, closedAt);
    await leader.close();
    const left = pages.filter((p) => p !== leader);
    const opened = () =>
      proxy.streams.find((s) => s.reviewer === reviewer && s.opened >= closedAt) ?? null;
    const tookOver = await waitFor(() => opened() !== null, TAKEOVER_TIMEOUT_MS);
    const takeoverMs = tookOver ? (opened() as StreamSpan).opened - closedAt : null;
    await sleep(SETTLE_MS);

    // One question open in one tab.
    const page = left[0] as Page;
    const openFrom = Date.now();
    await page.locator('[data-question-id] a[data-row-link]').first().click();
    const drawer = page.getByRole('dialog', { name: 'Question' });
    await drawer.getByTestId('drawer-team').waitFor({ timeout: 15_000 });
    const openTo = await windowEnd(openFrom, windowMs);

    // Another question open in a second tab: the browser still sends one request per 10 s.
    const second = left[1] as Page;
    const twoFrom = Date.now();
    await second.locator('[data-question-id] a[data-row-link]').nth(1).click();
    await second
      .getByRole('dialog', { name: 'Question' })
      .getByTestId('drawer-team')
      .waitFor({ timeout: 15_000 });
    const twoTo = await windowEnd(twoFrom, windowMs);
    const twoOpen = presenceIn(proxy.records, reviewer, twoFrom, twoTo);

    // Typing into its answer, continuously.
    const box = drawer.getByRole('textbox', { name: 'Answer' });
    await box.click();
    const typingFrom = Date.now();
    let keys = 0;
    while (Date.now() < typingFrom + windowMs) {
      // Select what is there so the box never fills up: each key still changes it.
      await page.keyboard.press('Control+A');
      for (const key of TYPED_TEXT) {
        if (Date.now() >= typingFrom + windowMs) break;
        await page.keyboard.type(key, { delay: 0 });
        keys++;
        await sleep(KEY_DELAY_MS);
      }
    }
    // The loop ran until the window's end; what came after it is not the window's.
    const typingTo = typingFrom + windowMs;
    const typedChars = (await box.inputValue()).length;
    await sleep(1_000);
    const end = Date.now();

    const mine = proxy.records.filter((r) => r.reviewer === reviewer && r.at < end);
    const presence = presenceIn(proxy.records, reviewer, loadStarted, end);
    const typing = presenceIn(proxy.records, reviewer, typingFrom, typingTo);
    const reports = typing.filter(isTypingReport);
    const openRequests = presenceIn(proxy.records, reviewer, openFrom, openTo).length;
    const requests: Record<string, number> = {};
    for (const record of mine) {
      const key = `${record.method} ${record.route}`;
      requests[key] = (requests[key] ?? 0) + 1;
    }
    const result: TeamRun = {
      windowSeconds: options.windowSeconds,
      visibleTabs,
      streamsThreeTabs,
      tookOver,
      takeoverMs,
      streamsAfterClose: mostHeld(proxy.streams, reviewer, closedAt, end),
      idlePerMinute: perMinute(
        presenceIn(proxy.records, reviewer, idleFrom, idleTo).length,
        idleFrom,
        idleTo,
      ),
      openPerMinute: perMinute(openRequests, openFrom, openTo),
      openRequests,
      twoOpenPerMinute: perMinute(twoOpen.length, twoFrom, twoTo),
      twoOpenRequests: twoOpen.length,
      twoOpenBoth: namesQuestions(twoOpen.at(-1)) >= 2,
      typingReportsPerMinute: perMinute(reports.length, typingFrom, typingTo),
      typingReports: reports.length,
      typingPerMinute: perMinute(typing.length, typingFrom, typingTo),
      typingGapMs: shortestGap(reports.map((r) => r.at)),
      typedChars,
      keysPerSecond: (keys * 1000) / (typingTo - typingFrom),
      leakedBodies: bodiesWith(presence, TYPED_WORDS),
      presenceBodies: presence.length,
      requests,
    };
    options.log(
      `team run ${run}: streams ${result.streamsThreeTabs} (3 tabs), ${result.streamsAfterClose} after the leader closed (took over in ${takeoverMs ?? '–'} ms); presence/min idle ${result.idlePerMinute.toFixed(1)}, open ${result.openPerMinute.toFixed(1)}, two tabs open ${result.twoOpenPerMinute.toFixed(1)}, typing ${result.typingPerMinute.toFixed(1)} (${reports.length} typing reports, shortest gap ${result.typingGapMs ?? '–'} ms); bodies with typed words ${result.leakedBodies} of ${presence.length}`,
    );
    return result;
  } finally {
    await context.close();
  }
}

export async function measureTeam(options: {
  browser: Browser;
  root: string;
  /** The portal server's port; its counting proxy takes any free one. */
  port: number;
  runs: number;
  windowSeconds: number;
  /** The first screen's JS (gzip), judged against `initialJs` with the rest when given. */
  initialJsBytes?: number;
  log: (line: string) => void;
}): Promise<TeamResult> {
  const problems: string[] = [];
  // The proxy first: the server must accept its address as Host.
  const proxy = await startCountingProxy({ host: '127.0.0.1', port: options.port });
  let portal: BenchPortal | null = null;
  const runs: TeamRun[] = [];
  try {
    options.log(
      `Starting the portal server (server/start.ts --production) on port ${options.port}…`,
    );
    portal = await startPortal(options.root, options.port, `127.0.0.1:${proxy.port}`);
    for (let run = 1; run <= options.runs; run++) {
      try {
        runs.push(
          await runOnce({
            browser: options.browser,
            portal: portal.origin,
            proxy,
            run,
            windowSeconds: options.windowSeconds,
            log: options.log,
          }),
        );
      } catch (error) {
        problems.push(`team run ${run}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  } finally {
    await portal?.close();
    await proxy.close();
  }
  return {
    runs,
    figures: teamFigures(runs, options.initialJsBytes),
    verdicts: judgeTeam(runs, options.initialJsBytes),
    problems,
  };
}

export function describeTeam(result: TeamResult): string {
  const lines = result.runs.map((run, i) => {
    const requests = Object.entries(run.requests)
      .map(([route, count]) => `${route} ${count}`)
      .join(', ');
    return `  run ${i + 1}: ${requests}; answer box ${run.typedChars} characters at the end; ${run.visibleTabs}/${TABS} tabs visible`;
  });
  return [
    `Presence and claims, one reviewer, ${TABS} tabs in one browser (bench/team.ts; counted at a proxy in front of server/start.ts), ${result.runs.length} run${result.runs.length === 1 ? '' : 's'}, medians (min–max):`,
    figuresTable(result.figures),
    ...result.figures.filter((f) => f.note).map((f) => `  ${f.label}: ${f.note}`),
    ...lines,
  ].join('\n');
}
