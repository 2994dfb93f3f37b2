// The triage figure (issue 14): keystrokes and time for a scripted reviewer to clear 50 pending
// questions with the keyboard only. 20 of them are look-alikes in groups of 4, and half of them
// (25) have quick answers. The reviewer types at a steady pace, reads nothing (it knows each
// answer from the question's text) and goes on as soon as the page is ready for the next key.
//
// Two reviewers: `current` uses what the portal offers now (look-alikes answered once, answer and
// next, quick answers and its own recent answers on 1–9); `before` uses only what the portal
// offered before issue 14 (each ask answered alone, the answer typed, the drawer closed with Esc
// and the next row opened with Enter), and runs against a build of the commit before issue 14's
// first merge.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from '@playwright/test';
import { TENANT_COOKIE, TENANT_HEADER } from '../mock/app.ts';
import { triageBudgets } from './bundle-size.ts';
import { VIEWPORT } from './measure.ts';
import { type Figure, figuresTable, judgeAll, stat, type Verdict } from './report.ts';
import { ask, control } from './seed.ts';
import { startBenchServer } from './server.ts';

/** A reviewer's steady typing: 10 keys a second. */
export const KEY_INTERVAL_MS = 100;
const GROUPS = 5;
const GROUP_SIZE = 4;
const SINGLES = 30;
/** Reflexio hands back the pending call for the same ask within 5 minutes (its dedup window). */
const DEDUP_WINDOW_MS = 300_000;
/** The most the reviewer waits for the page at any one step. */
const STEP_TIMEOUT_MS = 20_000;

export type TriageReviewer = 'current' | 'before';

interface Planned {
  text: string;
  format: string | null;
  /** What the reviewer answers: a quick answer's label, or the text to type. */
  answer: string;
  /** 1-based quick answer for the `1`–`9` keys; null when the answer is typed. */
  quick: number | null;
  asks: number;
}

const REGIONS = 'one of: eu-west-1, us-east-1, ap-south-1';
const FREE_ANSWERS = [
  'Use the EU template',
  'Wait for Monday',
  'Only the last 30 days',
  'Ask the data team',
  'Skip it this time',
];

/**
 * 35 rows: 5 groups of 4 look-alikes and 30 single questions, 50 asks. Quick answers on 25 asks:
 * 3 groups (12 asks) and 13 singles; the rest take a typed answer.
 */
export function triagePlan(): Planned[] {
  const plan: Planned[] = [];
  for (let g = 0; g < GROUPS; g++) {
    const quick = g < 3;
    plan.push({
      text: `Look-alike ${g + 1}: may the nightly export for workspace ${g + 1} include archived projects?`,
      format: quick ? 'yes/no' : null,
      answer: quick ? (g % 2 ? 'No' : 'Yes') : (FREE_ANSWERS[g] as string),
      quick: quick ? (g % 2 ? 2 : 1) : null,
      asks: GROUP_SIZE,
    });
  }
  for (let i = 0; i < SINGLES; i++) {
    const quick = i < 13;
    const regions = quick && i % 3 === 2;
    plan.push({
      text: `Single ${i + 1}: ${regions ? `which region should batch job ${i + 1} run in?` : `should the invoice run ${i + 1} use the new VAT rules?`}`,
      format: quick ? (regions ? REGIONS : 'yes/no') : null,
      answer: quick
        ? regions
          ? 'us-east-1'
          : i % 2
            ? 'No'
            : 'Yes'
        : (FREE_ANSWERS[i % 5] as string),
      quick: quick ? (regions ? 2 : i % 2 ? 2 : 1) : null,
      asks: 1,
    });
  }
  return plan;
}

export interface SeededRow extends Planned {
  ids: string[];
}

/** The plan through the mock's control routes, as agents ask; rows interleaved by expiry. */
export async function seedTriageTenant(origin: string, tenant: string): Promise<SeededRow[]> {
  await control(origin, tenant, 'reset', { seed: 'empty' });
  const plan = triagePlan();
  // Groups spread through the list (every 7th row), the rest in order, soonest expiry first.
  const order = plan.map((_, i) => i);
  const groups = order.slice(0, GROUPS);
  const singles = order.slice(GROUPS);
  const rows: number[] = [];
  while (groups.length + singles.length > 0) {
    if (rows.length % 7 === 1 && groups.length > 0) rows.push(groups.shift() as number);
    else rows.push((singles.shift() ?? groups.shift()) as number);
  }
  const seeded: SeededRow[] = [];
  let clockMs = 0;
  for (const [position, index] of rows.entries()) {
    const planned = plan[index] as Planned;
    const ids: string[] = [];
    for (let k = 0; k < planned.asks; k++) {
      if (k > 0) {
        await control(origin, tenant, 'clock', { advanceMs: DEDUP_WINDOW_MS + 1_000 });
        clockMs += DEDUP_WINDOW_MS + 1_000;
      }
      ids.push(
        await ask(origin, tenant, {
          question: planned.text,
          answer_format: planned.format,
          tags: ['triage'],
          user_id: 'reviewer-bench@example.com',
          // Ten hours and more, one minute apart in list order: nothing expires while clearing.
          expires_in_seconds: 36_000 + position * 60 - clockMs / 1000,
        }),
      );
    }
    seeded.push({ ...planned, ids });
  }
  return seeded;
}

interface Keys {
  /** Every key press, chords (Ctrl+Enter) counting one. */
  total: number;
  /** Of which characters typed into an answer. */
  typed: number;
  /** Answers chosen with a digit (a quick answer or one of the reviewer's recent answers). */
  chosen: number;
  /** Time spent waiting for the page (or the server) to be ready for the next key. */
  waitedMs: number;
}

export interface TriageRun {
  reviewer: TriageReviewer;
  keys: Keys;
  /** Navigation to the last answer accepted. */
  seconds: number;
  /** Of which the page (and the server behind it) kept the reviewer waiting; the rest is typing. */
  waitingSeconds: number;
  answered: number;
  /** Answers whose text was not the planned one (a key typed into the wrong box, say). */
  wrongAnswers: string[];
}

async function pendingIds(origin: string, tenant: string): Promise<Map<string, unknown>> {
  const response = await fetch(`${origin}/__mock/state`, { headers: { [TENANT_HEADER]: tenant } });
  const state = (await response.json()) as {
    calls: { id: string; status: string; result: unknown }[];
  };
  return new Map(state.calls.map((call) => [call.id, call]));
}

/** Waits until every one of `ids` is no longer pending at the mock. */
async function accepted(origin: string, tenant: string, ids: string[]): Promise<void> {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  for (;;) {
    const calls = await pendingIds(origin, tenant);
    if (ids.every((id) => (calls.get(id) as { status?: string })?.status !== 'pending')) return;
    if (Date.now() > deadline) throw new Error(`not accepted within 20 s: ${ids.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The open question's id (from the address), or null on the list. */
const openIdOf = (page: Page) => {
  const match = /\/questions\/([^/?#]+)/.exec(new URL(page.url()).pathname);
  return match ? decodeURIComponent(match[1] as string) : null;
};

const focusIsTextBox = (page: Page) =>
  page.evaluate(() => document.activeElement?.tagName === 'TEXTAREA');

function keyboard(page: Page, keys: Keys) {
  const pause = () => new Promise((resolve) => setTimeout(resolve, KEY_INTERVAL_MS));
  return {
    async press(key: string) {
      keys.total += 1;
      await page.keyboard.press(key);
      await pause();
    },
    async type(text: string) {
      for (const character of text) {
        keys.total += 1;
        keys.typed += 1;
        await page.keyboard.type(character);
        await pause();
      }
    },
    /** Waits for the page, counting the time as waiting. */
    async wait<T>(ready: Promise<T>): Promise<T> {
      const start = Date.now();
      try {
        return await ready;
      } finally {
        keys.waitedMs += Date.now() - start;
      }
    },
  };
}

/** The 1–9 key of `answer` among the drawer's recent answers, or null when it is not there. */
async function recentAnswerKey(page: Page, answer: string): Promise<number | null> {
  const offered = await page
    .getByRole('group', { name: 'Recent answers' })
    .locator('button[aria-keyshortcuts]')
    .evaluateAll((buttons) => buttons.map((button) => button.textContent));
  const index = offered.indexOf(answer);
  return index >= 0 && index < 9 ? index + 1 : null;
}

/** Now: look-alikes once, answer and next, quick answers and recent answers on 1–9. */
async function clearWithCurrent(page: Page, rows: SeededRow[], origin: string, tenant: string) {
  const keys: Keys = { total: 0, typed: 0, chosen: 0, waitedMs: 0 };
  const kb = keyboard(page, keys);
  const byLead = new Map(rows.map((row) => [row.ids[0] as string, row]));
  await kb.press('j');
  await kb.press('Enter');
  let done = 0;
  while (done < rows.length) {
    const open = openIdOf(page);
    const row = open ? byLead.get(open) : undefined;
    if (!row) throw new Error(`the open question ${open} is not a row's first ask`);
    await kb.wait(
      page.waitForFunction(
        (text) => document.querySelector('[data-testid="question-text"]')?.textContent === text,
        row.text,
        { timeout: STEP_TIMEOUT_MS },
      ),
    );
    const inBox = await focusIsTextBox(page);
    // A free-text answer given before is one of "your recent answers", on the same keys.
    const digit = row.quick ?? (await recentAnswerKey(page, row.answer));
    if (digit !== null) {
      // Answer and next leaves the cursor in the box: Esc leaves it, so the digit is a shortcut.
      if (inBox) await kb.press('Escape');
      await kb.press(String(digit));
      keys.chosen += 1;
    } else {
      if (!inBox) await kb.press('a');
      await kb.type(row.answer);
    }
    await kb.press('Control+Enter');
    await kb.wait(accepted(origin, tenant, row.ids));
    done += 1;
    if (done < rows.length) {
      // Answer and next: the next row's question opens with the cursor in its box.
      await kb.wait(
        page.waitForFunction((id) => !location.pathname.endsWith(`/${id}`), open, {
          timeout: STEP_TIMEOUT_MS,
        }),
      );
    }
  }
  return keys;
}

/** Before issue 14: every ask alone, typed answers, Esc to the list and Enter on the next row. */
async function clearWithBefore(page: Page, rows: SeededRow[], origin: string, tenant: string) {
  const keys: Keys = { total: 0, typed: 0, chosen: 0, waitedMs: 0 };
  const kb = keyboard(page, keys);
  const byId = new Map(rows.flatMap((row) => row.ids.map((id) => [id, row] as const)));
  const asks = rows.reduce((sum, row) => sum + row.asks, 0);
  await kb.press('j');
  for (let done = 0; done < asks; done++) {
    // On the list, a row focused (the one after the answered one): open it.
    await kb.wait(
      page.waitForFunction(
        () => document.activeElement?.closest('[data-question-id]') !== null,
        undefined,
        { timeout: STEP_TIMEOUT_MS },
      ),
    );
    await kb.press('Enter');
    await kb.wait(
      page.waitForFunction(
        () =>
          /\/questions\/[^/]+$/.test(location.pathname) &&
          document.activeElement?.tagName === 'TEXTAREA',
        undefined,
        { timeout: STEP_TIMEOUT_MS },
      ),
    );
    const open = openIdOf(page) as string;
    const row = byId.get(open);
    if (!row) throw new Error(`the open question ${open} was not seeded`);
    await kb.type(row.answer);
    await kb.press('Control+Enter');
    await kb.wait(accepted(origin, tenant, [open]));
    await kb.press('Escape');
    await kb.wait(
      page.waitForFunction(() => /\/questions\/?$/.test(location.pathname), undefined, {
        timeout: STEP_TIMEOUT_MS,
      }),
    );
  }
  return keys;
}

export async function runTriage(options: {
  browser: Browser;
  origin: string;
  tenant: string;
  reviewer: TriageReviewer;
}): Promise<TriageRun> {
  const { browser, origin, tenant, reviewer } = options;
  const rows = await seedTriageTenant(origin, tenant);
  const context = await browser.newContext({ viewport: VIEWPORT, reducedMotion: 'reduce' });
  try {
    await context.addCookies([{ name: TENANT_COOKIE, value: tenant, url: origin }]);
    const page = await context.newPage();
    const started = Date.now();
    await page.goto(`${origin}/questions`);
    await page.locator('[data-question-id]').first().waitFor({ timeout: STEP_TIMEOUT_MS });
    const loadMs = Date.now() - started;
    const keys = await (reviewer === 'current' ? clearWithCurrent : clearWithBefore)(
      page,
      rows,
      origin,
      tenant,
    );
    const seconds = (Date.now() - started) / 1000;
    const calls = await pendingIds(origin, tenant);
    const wrongAnswers: string[] = [];
    let answered = 0;
    for (const row of rows) {
      for (const id of row.ids) {
        const call = calls.get(id) as { status: string; result: { answer?: string } | null };
        if (call.status === 'resolved' || call.status === 'superseded') answered += 1;
        const given = call.result?.answer;
        if (given !== row.answer) wrongAnswers.push(`${id}: ${JSON.stringify(given)}`);
      }
    }
    return {
      reviewer,
      keys,
      seconds,
      waitingSeconds: (loadMs + keys.waitedMs) / 1000,
      answered,
      wrongAnswers,
    };
  } finally {
    await context.close();
  }
}

/** A server of its own for one build (the current one, or the build before issue 14). */
export async function measureTriage(options: {
  browser: Browser;
  distDir: string;
  port: number;
  reviewer: TriageReviewer;
}): Promise<TriageRun> {
  const server = await startBenchServer({ distDir: options.distDir, port: options.port });
  try {
    return await runTriage({ ...options, origin: server.origin, tenant: 'triage' });
  } finally {
    await server.close();
  }
}

/** The last commit before issue 14's first merge (fbedec3): the portal the figure started from. */
export const BEFORE_COMMIT = 'f25d0ed2ac470a2eaed53ba7e77f96903e277d43';

const run = promisify(execFile);

/**
 * Builds `commit`'s portal in a temporary worktree (sharing this checkout's node_modules: the
 * dependencies are the same) and returns its dist directory and a way to remove it all.
 */
export async function buildCommit(
  root: string,
  commit: string,
): Promise<{ distDir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'qi-triage-before-'));
  const tree = path.join(dir, 'tree');
  const remove = async () => {
    await run('git', ['worktree', 'remove', '--force', tree], { cwd: root }).catch(() => {});
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await run('git', ['worktree', 'add', '--detach', tree, commit], { cwd: root });
    await symlink(path.join(root, 'node_modules'), path.join(tree, 'node_modules'), 'dir');
    const { build } = await import('vite');
    await build({ root: tree, configFile: path.join(tree, 'vite.config.ts'), logLevel: 'warn' });
    return { distDir: path.join(tree, 'dist'), remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

export interface TriageResult {
  runs: { current: TriageRun[]; before: TriageRun[] };
  beforeCommit: string;
  figures: Figure[];
  verdicts: Verdict[];
  problems: string[];
}

/**
 * `runs` runs of each reviewer on its own build, taking turns (the current portal first in odd
 * runs, the one before issue 14 first in even ones), each on a server of its own.
 */
export async function measureTriageFigure(options: {
  browser: Browser;
  root: string;
  distDir: string;
  port: number;
  runs: number;
  beforeCommit?: string;
  log: (line: string) => void;
}): Promise<TriageResult> {
  const beforeCommit = options.beforeCommit ?? BEFORE_COMMIT;
  const problems: string[] = [];
  const runs: TriageResult['runs'] = { current: [], before: [] };
  options.log(
    `Triage: building the portal as it was before issue 14 (${beforeCommit.slice(0, 7)})…`,
  );
  const before = await buildCommit(options.root, beforeCommit).catch((error: unknown) => {
    problems.push(`triage: the portal before issue 14 could not be built: ${String(error)}`);
    return null;
  });
  try {
    for (let i = 0; i < options.runs; i++) {
      const order: TriageReviewer[] = i % 2 ? ['before', 'current'] : ['current', 'before'];
      for (const reviewer of order) {
        const distDir = reviewer === 'current' ? options.distDir : before?.distDir;
        if (!distDir) continue;
        options.log(`Triage run ${i + 1}/${options.runs}: the ${reviewer} portal…`);
        // A port each: a server closed on one port leaves Node's fetch holding dead sockets to it.
        // A port per run: Node's fetch keeps connections to an origin open, and one to the previous
        // run's server (closed since) failed the next run's first request ("fetch failed").
        const port = options.port + 2 * i + (reviewer === 'current' ? 0 : 1);
        const result = await measureTriage({ ...options, port, distDir, reviewer }).catch(
          (error: unknown) => {
            problems.push(`triage, ${reviewer} portal, run ${i + 1}: ${String(error)}`);
            return null;
          },
        );
        if (!result) continue;
        if (result.answered !== 50 || result.wrongAnswers.length > 0) {
          problems.push(
            `triage, ${reviewer} portal, run ${i + 1}: ${result.answered} of 50 answered; wrong: ${result.wrongAnswers.join('; ') || 'none'}`,
          );
        }
        runs[reviewer].push(result);
      }
    }
  } finally {
    await before?.remove();
  }
  const figure = (
    id: string,
    label: string,
    unit: Figure['unit'],
    of: (r: TriageRun) => number,
  ) => ({
    id,
    label,
    unit,
    portal: stat(runs.current.map(of)),
    floor: stat(runs.before.map(of)),
    compare: true,
  });
  const figures: Figure[] = [
    figure('triageKeys', 'keystrokes, all', 'keys', (r) => r.keys.total),
    figure(
      'triageCommandKeys',
      'keystrokes other than typed answers',
      'keys',
      (r) => r.keys.total - r.keys.typed,
    ),
    figure('triageTypedKeys', 'characters typed into answers', 'keys', (r) => r.keys.typed),
    figure('triageChosen', 'answers chosen with 1–9', 'keys', (r) => r.keys.chosen),
    figure('triageTime', 'time to clear, typing at 10 keys/s', 's', (r) => r.seconds),
    figure('triageWaiting', 'of which waiting for the page', 's', (r) => r.waitingSeconds),
  ];
  return { runs, beforeCommit, figures, verdicts: judgeAll(figures, triageBudgets), problems };
}

export function describeTriage(triage: TriageResult): string {
  const count = Math.max(triage.runs.current.length, triage.runs.before.length);
  return [
    `Triage (bench/triage.ts): a scripted reviewer clears 50 pending questions (5 groups of 4 look-alikes and 30 single questions; quick answers on 25), keyboard only, typing at ${1000 / KEY_INTERVAL_MS} keys/s; "floor" is the same work on the portal before issue 14 (commit ${triage.beforeCommit.slice(0, 7)}); ${count} run(s) each, medians (min–max):`,
    figuresTable(triage.figures),
  ].join('\n');
}
