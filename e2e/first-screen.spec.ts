import type { Page, Route } from '@playwright/test';
import { drawer, expect, row, test } from './fixtures';

// The first screen comes with the page (issue 40, docs/server-rendering.md): the portal server
// renders the rows of the address's list into index.html. These journeys hold the app's own
// scripts back (page.route) to see what the HTML alone shows, then let them through and watch the
// app take the page over (hydration) without changing what is on it.

// On for every journey (e2e/fixtures.ts `firstScreen`), with config.json as the server serves it:
// the page is taken over, not rendered anew.

/** Holds every script of the build (./assets/*.js) until `release()`. */
async function holdScripts(page: Page) {
  const held: Route[] = [];
  let released = false;
  await page.route(/\/assets\/[^/]+\.js$/, async (route) => {
    if (released) await route.continue();
    else held.push(route);
  });
  return {
    async release() {
      released = true;
      await Promise.all(held.splice(0).map((route) => route.continue()));
    },
  };
}

/** Console errors and warnings, and uncaught exceptions (a hydration mismatch is either). */
function problems(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') seen.push(message.text());
  });
  page.on('pageerror', (error) => seen.push(error.message));
  return seen;
}

const hydrated = (page: Page) => expect(page.locator('html[data-hydrated]')).toBeAttached();

// Each journey is a reviewer of its own (the name under "You are", as the app keeps it): the
// portal server limits presence and event streams per reviewer, and these journeys count every
// console error, a 429 for a presence message sent by another journey as "Reviewer" included.
test.beforeEach(async ({ context, baseURL }, testInfo) => {
  const name = `First screen ${testInfo.testId} ${testInfo.repeatEachIndex}`;
  await context.addCookies([
    { name: 'qi_reviewer', value: encodeURIComponent(name), url: baseURL as string },
  ]);
  await context.addInitScript((kept) => localStorage.setItem('qi.reviewer', kept), name);
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the URL's rows are in the page before the app's code runs, and stay as they are (${colorScheme})`, async ({
    page,
    mock,
  }) => {
    await page.emulateMedia({ colorScheme });
    const seen = problems(page);
    const asked = await mock.ask({
      question: 'First screen: which region should the canary deploy go to?',
    });
    const scripts = await holdScripts(page);
    // A filter from the address: the server renders the view it asks for.
    await page.goto('questions?q=canary%20deploy', { waitUntil: 'commit' });
    await expect(row(page, asked.id)).toContainText('which region should the canary deploy go to');
    await expect(page.locator('[data-question-id]')).toHaveCount(1);
    await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('canary deploy');
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
    await expect(page.locator('html[data-hydrated]')).not.toBeAttached();
    // What is drawn (innerText), not the DOM's text: the point is that nothing visible changes.
    // The countdowns tick on: what they say is their own (e2e/clock-skew.spec.ts).
    const list = async () =>
      // biome-ignore lint/performance/useDomNodeTextContent: what is drawn, as said above.
      (await page.getByRole('list', { name: 'Questions' }).innerText()).replace(
        /expires in [^\n]*/g,
        'expires in …',
      );
    const before = await list();

    await scripts.release();
    await hydrated(page);
    await expect(row(page, asked.id)).toBeVisible();
    expect(await list()).toBe(before);
    expect(seen).toEqual([]);
  });
}

test('scrolling and focus made before the app takes over are kept', async ({ page }) => {
  const seen = problems(page);
  const scripts = await holdScripts(page);
  await page.goto('questions', { waitUntil: 'commit' });
  const links = page.locator('a[data-row-link]');
  await expect(links.nth(5)).toBeVisible();
  const focusedId = await links.nth(3).evaluate((link) => {
    (link as HTMLElement).focus();
    window.scrollTo(0, 240);
    return link.closest<HTMLElement>('[data-question-id]')?.dataset.questionId;
  });
  expect(focusedId).toBeTruthy();
  const scrolled = await page.evaluate(() => window.scrollY);
  expect(scrolled).toBeGreaterThan(0);

  await scripts.release();
  await hydrated(page);
  expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
  const focused = await page.evaluate(
    () =>
      document.activeElement?.closest<HTMLElement>('[data-question-id]')?.dataset.questionId ??
      null,
  );
  expect(focused).toBe(focusedId);
  expect(seen).toEqual([]);
});

test('a row clicked before the app takes over opens once it has', async ({ page }) => {
  const seen = problems(page);
  const scripts = await holdScripts(page);
  await page.goto('questions', { waitUntil: 'commit' });
  const first = page.locator('[data-question-id]').first();
  const id = await first.getAttribute('data-question-id');
  const title = ((await first.locator('a[data-row-link]').textContent()) ?? '').trim();
  await first.locator('a[data-row-link]').click();
  // Queued, not followed: the page stays, with everything on it.
  await expect(page).toHaveURL(/\/questions$/);

  await scripts.release();
  await expect(drawer(page)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/questions/${encodeURIComponent(id ?? '')}$`));
  await expect(drawer(page)).toContainText(title.slice(0, 40));
  expect(seen).toEqual([]);
});

test('a link to a question shows it from the HTML', async ({ page, mock }) => {
  const seen = problems(page);
  const asked = await mock.ask({
    question: 'First screen: may I rotate the staging database password tonight?',
  });
  const scripts = await holdScripts(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`questions/${encodeURIComponent(asked.id)}`, { waitUntil: 'commit' });
  await expect(drawer(page)).toContainText('rotate the staging database password tonight');
  await expect(page.locator('html[data-hydrated]')).not.toBeAttached();

  await scripts.release();
  await hydrated(page);
  await expect(drawer(page)).toContainText('rotate the staging database password tonight');
  await expect(page.getByRole('textbox', { name: /answer/i }).first()).toBeVisible();
  expect(seen).toEqual([]);
});

test('what is chosen, ticked and pressed before the app takes over is done once it has, in order', async ({
  page,
}) => {
  const seen = problems(page);
  const scripts = await holdScripts(page);
  await page.goto('questions', { waitUntil: 'commit' });
  const rows = page.locator('[data-question-id]');
  const tick = (n: number) => rows.nth(n).locator('input[type="checkbox"]');
  await expect(tick(2)).toBeVisible();
  const ids = await rows.evaluateAll((found) =>
    found.map((row) => (row as HTMLElement).dataset.questionId),
  );
  // A tag chosen and put back; j twice and Enter (the second question opens); then a range of
  // three ticked (a click, then a Shift-click).
  const tag = page.getByRole('combobox', { name: 'Tag' });
  await tag.selectOption('billing');
  await tag.selectOption('');
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('Enter');
  await tick(0).click();
  await tick(2).click({ modifiers: ['Shift'] });
  // Nothing of it has happened yet: no handler is there to do it.
  await expect(page).toHaveURL(/\/questions$/);
  await expect(page.getByRole('toolbar', { name: 'Selected questions' })).not.toContainText(
    /\d+ selected/,
  );
  await expect(tick(0)).not.toBeChecked();

  await scripts.release();
  await hydrated(page);
  // Every action once, in the order it came: the tag is back to "Any tag", a question is open
  // (j moved the cursor onto a row, Enter opened it), and the range is three rows.
  await expect(drawer(page)).toBeVisible();
  expect(ids).toContain(decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? ''));
  await expect(tag).toHaveValue('');
  await expect(page.getByRole('toolbar', { name: 'Selected questions' })).toContainText(
    '3 selected',
  );
  expect(seen).toEqual([]);
});

// The server renders with each system's clock as it read it (their Date headers); the app took the
// page over with none of them known yet, and the row of a system running ahead said "asked in 10
// minutes" where the HTML said "asked just now": React threw that render away and drew it anew.
test("a system whose clock runs ahead is taken over as the server drew it, by that system's clock", async ({
  page,
  mock,
}) => {
  const seen = problems(page);
  await mock.call('POST', 'clock', { advanceMs: 10 * 60_000 });
  const asked = await mock.ask({ question: 'First screen: is the ahead-of-time clock fine?' });
  const scripts = await holdScripts(page);
  await page.goto('questions?sort=newest', { waitUntil: 'commit' });
  await expect(row(page, asked.id)).toContainText('asked just now');

  await scripts.release();
  await hydrated(page);
  await expect(row(page, asked.id)).toContainText('asked just now');
  expect(seen).toEqual([]);
});

// The server cannot see this browser's storage: it draws the default, and the app takes that over
// before it shows what the reviewer chose (it read the choice at once, and the two did not match).
test('single-key shortcuts turned off: the hint says so once the app takes over, with nothing redrawn', async ({
  page,
}) => {
  const seen = problems(page);
  await page.addInitScript(() => localStorage.setItem('qi:single-key-shortcuts', 'off'));
  const scripts = await holdScripts(page);
  await page.goto('questions', { waitUntil: 'commit' });
  await expect(page.getByText('Press ? for keyboard shortcuts')).toBeVisible();

  await scripts.release();
  await hydrated(page);
  await expect(page.getByText('Single-key shortcuts are off.')).toBeVisible();
  expect(seen).toEqual([]);
});

// The exact times (the tooltips of "asked 5 minutes ago" and of the countdown) are in the
// reviewer's zone, which the server cannot know: its HTML has none, the app adds them once it has
// taken the page over (it once wrote the server's zone, and a reviewer elsewhere kept it).
test.describe('a reviewer in another time zone than the server', () => {
  test.use({ timezoneId: 'Asia/Kathmandu' });

  test('gets the exact times in their own zone once the app takes over, with nothing redrawn', async ({
    page,
  }) => {
    const seen = problems(page);
    const scripts = await holdScripts(page);
    await page.goto('questions', { waitUntil: 'commit' });
    const first = page.locator('[data-question-id]').first();
    const asked = first.locator('time').first();
    const expires = first.locator('[data-urgency]').first();
    await expect(first).toBeVisible();
    await expect(asked).not.toHaveAttribute('title', /./);
    await expect(expires).not.toHaveAttribute('title', /./);
    // What the row says stays (other journeys' presence may come and go on a demo row).
    const said = await asked.textContent();
    await scripts.release();
    await hydrated(page);
    await expect(asked).toHaveAttribute('title', /GMT\+5:45$/);
    await expect(expires).toHaveAttribute('title', /^Expires .*GMT\+5:45$/);
    await expect(asked).toHaveText(said ?? '');
    expect(seen).toEqual([]);
  });
});
