// A slow system never holds back the inbox (issue 31): one system's list is held back (each of
// the three in turn); the other two systems' rows are on screen
// and usable meanwhile, and its rows slot in later without taking the reviewer's focus or draft.
import type { APIRequestContext, Request } from '@playwright/test';
import { bilbyDemoIds } from '../mock/bilby/seed';
import { demoIds } from '../mock/seed';
import { vertesiaDemoIds } from '../mock/vertesia/seed';
import { drawer, expect, holdBack, row, test } from './fixtures';

type System = 'reflexio' | 'vertesia' | 'bilby';

async function control(
  request: APIRequestContext,
  tenant: string,
  system: System,
  path: string,
  data?: unknown,
) {
  const prefix = system === 'reflexio' ? '' : `${system}/`;
  const response = await request.fetch(`${prefix}__mock/${path}`, {
    method: 'POST',
    headers: { 'x-mock-tenant': tenant, connection: 'close' },
    data,
  });
  if (!response.ok()) throw new Error(`${system} mock ${path}: ${response.status()}`);
}

const systems: {
  id: System;
  label: string;
  /** Its list requests (Bilby: the pages of conversations; each conversation is read after). */
  listRoute: RegExp;
  row: string;
}[] = [
  // Reflexio filters by status on its server: the view's list and then the unfiltered one.
  {
    id: 'reflexio',
    label: 'Reflexio',
    listRoute: /\/api\/pending_tool_calls(\?|$)/,
    row: demoIds.pendingYesNo,
  },
  {
    id: 'vertesia',
    label: 'Vertesia',
    listRoute: /\/pending-asks(\?|$)/,
    row: `vertesia:${vertesiaDemoIds.refund}`,
  },
  {
    id: 'bilby',
    label: 'Bilby',
    listRoute: /\/bilby\/api\/v1\/conversations(\?|$)/,
    row: `bilby:${bilbyDemoIds.naming}:${bilbyDemoIds.namingCall}`,
  },
];

/** A first load's list requests, by system: Bilby's pages and each conversation apart. */
function countLists(requests: Request[]) {
  const paths = requests
    .filter((request) => request.method() === 'GET')
    .map((request) => new URL(request.url()))
    .map((url) => `${url.pathname}${url.search}`);
  return {
    reflexio: paths.filter((path) => /\/api\/pending_tool_calls(\?|$)/.test(path)).length,
    vertesia: paths.filter((path) => /\/pending-asks(\?|$)/.test(path)).length,
    bilbyPages: paths.filter((path) => /\/conversations(\?|$)/.test(path)),
    bilbyConversations: paths.filter((path) => /\/conversations\/[^/?]+(\?|$)/.test(path)),
  };
}

// A system made slow at the browser's own requests (page.route): the browser's own render, since the
// server reads the lists itself for a first screen (a system slow for the server too is measured by
// `npm run bench`'s "Bilby 2 s late" figure; docs/server-rendering.md).
test.use({ firstScreen: false });

test.beforeEach(async ({ request, mock }) => {
  for (const system of ['vertesia', 'bilby'] as const) {
    await control(request, mock.tenant, system, 'reset', { seed: 'demo' });
  }
});

for (const slow of systems) {
  test(`${slow.label} is slow: the others' rows are usable first, its rows slot in after`, async ({
    page,
  }) => {
    // Its list requests are held until the reviewer has opened and typed into another system's
    // question (a timed fault raced the drawer's first download on a loaded machine), then answered.
    const release = await holdBack(page, slow.listRoute);
    const requests: Request[] = [];
    page.on('request', (sent) => requests.push(sent));
    await page.goto('questions');

    const others = systems.filter((system) => system !== slow);
    for (const other of others) await expect(row(page, other.row)).toBeVisible();
    const loadingLine = page.locator('[data-sources-loading]');
    await expect(loadingLine).toContainText(`${slow.label} is`);
    await expect(row(page, slow.row)).toHaveCount(0);
    await expect(
      page
        .getByRole('combobox', { name: 'Source' })
        .locator('option', { hasText: `${slow.label} (loading…)` }),
    ).toHaveCount(1);

    // Usable: a question of another system opens and takes a draft while the slow one loads.
    const opened = others[0]?.row ?? '';
    await row(page, opened).getByRole('link').click();
    const answer = drawer(page).getByRole('textbox', { name: 'Answer' });
    await answer.fill('Yes, go ahead');
    await expect(answer).toBeFocused();
    await expect(loadingLine).toBeVisible();
    await release();

    // Its rows arrive; the reviewer's focus and draft stay where they were.
    await expect(row(page, slow.row)).toBeVisible({ timeout: 15_000 });
    await expect(loadingLine).toHaveCount(0);
    await expect(answer).toBeFocused();
    await expect(answer).toHaveValue('Yes, go ahead');
    await expect(
      page.getByRole('combobox', { name: 'Source' }).locator('option', { hasText: 'loading' }),
    ).toHaveCount(0);

    // One list request per system on a first load (each system's unfiltered list, the view cut
    // from it; the list is in flight until the slow system answers, so no poll comes between),
    // each Bilby conversation read once.
    const counts = countLists(requests);
    expect(counts.reflexio).toBe(1);
    expect(counts.vertesia).toBe(1);
    expect(new Set(counts.bilbyPages).size).toBe(counts.bilbyPages.length);
    expect(new Set(counts.bilbyConversations).size).toBe(counts.bilbyConversations.length);

    await answer.press('Control+Enter');
    await expect(page.getByText('Answer sent')).toBeVisible();
  });
}

test('a system answering late slots its rows in above the row under the pointer without moving it', async ({
  page,
}) => {
  // Reflexio holds the question that expires soonest: its rows go in above the others'.
  const release = await holdBack(page, /\/api\/pending_tool_calls(\?|$)/);
  await page.goto('questions');
  await expect(row(page, `bilby:${bilbyDemoIds.naming}:${bilbyDemoIds.namingCall}`)).toBeVisible();
  await expect(page.locator('[data-sources-loading]')).toContainText('Reflexio is');
  // The lowest row wholly on the first screen, the page not scrolled (where the browser's own
  // scroll anchoring does nothing).
  const viewport = page.viewportSize()?.height ?? 0;
  const ids = await page
    .locator('[data-question-id]')
    .evaluateAll(
      (rows, bottom) =>
        rows
          .filter((element) => element.getBoundingClientRect().bottom <= bottom)
          .map((element) => (element as HTMLElement).dataset.questionId ?? ''),
      viewport,
    );
  const pointed = row(page, ids.at(-1) ?? '');
  await pointed.hover();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  const before = await pointed.boundingBox();
  await release();

  const late = row(page, demoIds.pendingSoonest);
  await expect(late).toBeVisible({ timeout: 15_000 });
  await expect(page.locator('[data-sources-loading]')).toHaveCount(0);
  const after = await pointed.boundingBox();
  const lateBox = await late.boundingBox();
  // Its rows did go in above it, and the page scrolled by as much: it is where it was.
  expect(lateBox?.y ?? Number.POSITIVE_INFINITY).toBeLessThan(after?.y ?? 0);
  expect(Math.abs((after?.y ?? 0) - (before?.y ?? 0))).toBeLessThan(1);
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
});

test("the line naming a system still loading comes and goes without moving the others' rows", async ({
  page,
}) => {
  // Bilby's list and the line's code are both held: the first rows are measured before either.
  const release = await holdBack(page, /\/bilby\/api\/v1\/conversations(\?|$)/);
  const showLine = await holdBack(page, /\/assets\/source-notes-[\w-]+\.js$/);
  await page.goto('questions');
  const first = row(page, demoIds.pendingSoonest);
  await expect(first).toBeVisible();
  const top = () => first.evaluate((node) => node.getBoundingClientRect().top);
  const before = await top();
  await showLine();
  const line = page.locator('[data-sources-loading]');
  await expect(line).toContainText('Bilby is');
  expect(await top()).toBe(before);
  // Over the page, it takes no click: a click there goes to what is under it.
  const box = await line.boundingBox();
  expect(box).not.toBeNull();
  const hitsLine = await page.evaluate(
    ({ x, y }) => document.elementFromPoint(x, y)?.closest('[data-sources-loading]') != null,
    { x: (box?.x ?? 0) + 5, y: (box?.y ?? 0) + 5 },
  );
  expect(hitsLine).toBe(false);
  // Bilby's rows go in below the first (it expires soonest), and the line goes: nothing moved it.
  await release();
  await expect(row(page, `bilby:${bilbyDemoIds.naming}:${bilbyDemoIds.namingCall}`)).toBeVisible();
  await expect(line).toHaveCount(0);
  expect(await top()).toBe(before);
});
