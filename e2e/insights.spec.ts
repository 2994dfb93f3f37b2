import { type BrowserContext, test as base, request as playwrightRequest } from '@playwright/test';
import { type Db, openPostgres } from '../server/db/engine';
import { startTestPostgres, type TestPostgres } from '../server/db/test-postgres';
import { drawer, expect, expectNoA11yViolations, MockControl } from './fixtures';
import { startReviewerPortal } from './reviewer-portal';

/**
 * The Insights page behind an SSO proxy, over a real PostgreSQL (DATABASE_URL): the server's own
 * watcher reads the mock every second and records each question (first seen, expiry, how it
 * closed), as it does in production. The journeys use the mock's default tenant, the one the
 * watcher reads. The answer goes through the portal, so its trail entry is the server's own.
 */
const test = base.extend<object, { portal: { url: string; db: Db } }>({
  portal: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature.
    async ({}, use) => {
      const postgres: TestPostgres = await startTestPostgres();
      const url = await postgres.createDatabase();
      const portal = await startReviewerPortal({ DATABASE_URL: url, WATCH_INTERVAL_SECONDS: '1' });
      const db = await openPostgres(url);
      await use({ url: portal.url, db });
      await db.close();
      await portal.stop();
      await postgres.stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
});

test.beforeEach(async ({ portal }) => {
  // Each journey counts its own questions (the figures are the whole team's): the mock is emptied
  // first, so the watcher only closes (never adds) what the tables held.
  const api = await operator(portal.url);
  try {
    await new MockControl(api, 'default').reset('empty');
  } finally {
    await api.dispose();
  }
  for (const table of ['watched_questions', 'audit_entries', 'audit_outcomes', 'claims']) {
    await portal.db.query(`DELETE FROM ${table}`);
  }
});

/** The mock's control routes on its default tenant need the SSO identity, as every write does. */
function operator(url: string) {
  return playwrightRequest.newContext({
    baseURL: url,
    extraHTTPHeaders: { 'X-Forwarded-Email': 'operator@example.com' },
  });
}

/** Waits until the watcher has recorded `id` with `status`. */
async function watched(db: Db, id: string, status: string) {
  await expect
    .poll(async () => {
      const rows = await db.query<{ status: string }>(
        'SELECT status FROM watched_questions WHERE question_id = $1',
        [id],
      );
      return rows[0]?.status ?? null;
    })
    .toBe(status);
}

async function signedIn(browser: import('@playwright/test').Browser, url: string, email: string) {
  const context = await browser.newContext({
    baseURL: url,
    extraHTTPHeaders: { 'X-Forwarded-Email': email },
    timezoneId: 'Europe/Paris',
  });
  await context.addInitScript(() => localStorage.setItem('qi:answer-and-next', 'off'));
  return context;
}

test('a reviewer answers, another question expires: the waits, the missed one and the CSV', async ({
  browser,
  portal,
}, testInfo) => {
  test.slow();
  const tag = `${testInfo.workerIndex}-${testInfo.repeatEachIndex}-${Date.now()}`;
  const alice = `alice-${tag}@example.com`;
  const api = await operator(portal.url);
  const mock = new MockControl(api, 'default');
  const contexts: BrowserContext[] = [];
  try {
    const answered = await mock.ask({ question: 'Ship the release?', expires_in_seconds: 3600 });
    const missed = await mock.ask({
      question: 'Rotate the keys tonight?',
      user_id: 'user-7',
      expires_in_seconds: 3600,
    });
    await watched(portal.db, answered.id, 'pending');
    await watched(portal.db, missed.id, 'pending');

    const context = await signedIn(browser, portal.url, alice);
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`questions/${answered.id}`);
    await drawer(page).getByRole('textbox', { name: 'Answer' }).fill('Yes, ship it');
    await drawer(page).getByRole('button', { name: 'Answer', exact: true }).click();
    await expect(page.getByText('Answer sent')).toBeVisible();

    // The other one expires with nobody acting; the watcher records it closed.
    await mock.asOtherReviewer(missed.id, 'expire');
    await watched(portal.db, missed.id, 'expired');

    // Its toast closes by itself (its close button has no name: axe would flag the toast, not this page).
    await expect(page.getByText('Answer sent')).toBeHidden();
    await page.getByRole('link', { name: 'Insights' }).click();
    await expect(page).toHaveURL(/\/insights$/);
    await expect(page.getByRole('heading', { name: 'Insights', level: 2 })).toBeVisible();
    await expect(page.getByTestId('outcome-summary')).toHaveText(
      '2 asked: 1 answered, 1 missed (expired with nobody acting), 0 closed otherwise, 0 still waiting.',
    );
    // One wait: from the watcher first seeing the question to the answer (seconds; a minute or
    // more on a loaded machine).
    await expect(page.getByTestId('wait-summary')).toContainText(
      /^Median (\d+m )?\d+s, 90th percentile (\d+m )?\d+s, over 1 of 2 questions answered through the portal\./,
    );
    await expect(page.getByTestId('wait-chart').locator('svg').first()).toBeVisible();
    const missedSection = page.getByRole('region', { name: 'Last missed questions' });
    await missedSection.getByRole('button', { name: /Rotate the keys tonight\?/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Missed question' });
    await expect(dialog.getByRole('region', { name: 'History' })).toContainText(
      'Nothing done here through the portal yet.',
    );
    await expectNoA11yViolations(page);
    await page.keyboard.press('Escape');
    // Gone, not fading out (a scan during its exit sees half-transparent text).
    await expect(page.getByRole('dialog')).toHaveCount(0);
    const reviewers = page.getByRole('region', { name: 'Actions per reviewer' });
    await expect(reviewers).toContainText(alice);
    await expectNoA11yViolations(page);

    // The CSV says what the page says, fetched as Alice's browser would.
    const days = page
      .getByRole('region', { name: 'What became of the questions' })
      .getByRole('link', { name: /Download .* as CSV/ });
    const href = await days.getAttribute('href');
    const reply = await context.request.get(new URL(href as string, page.url()).href);
    expect(reply.headers()['content-disposition']).toBe('attachment; filename="insights-days.csv"');
    const total = (await reply.text()).trim().split('\r\n').at(-1) ?? '';
    expect(total).toMatch(/^total,2,1,1,0,0,(\d+(\.\d)?),\1$/);
    const missedCsv = await context.request.get(
      new URL((await missedSection.getByRole('link').getAttribute('href')) as string, page.url())
        .href,
    );
    expect(await missedCsv.text()).toContain(
      `reflexio,${missed.id},Rotate the keys tonight?,user-7,`,
    );

    // The Activity page lists the same one action for Alice.
    await page.goto(`activity?reviewer=${encodeURIComponent(alice)}`);
    const table = page.getByRole('table', { name: 'Activity, newest first' });
    await expect(table.getByRole('row')).toHaveCount(2);
  } finally {
    for (const context of contexts) await context.close();
    await api.dispose();
  }
});

test('filters stay in the address; on a phone, in the dark, nothing overflows and axe is clean', async ({
  browser,
  portal,
}) => {
  test.slow();
  const api = await operator(portal.url);
  // Expires within 10 minutes, nobody holds it.
  const asked = await new MockControl(api, 'default').ask({
    question: 'Refund the order?',
    user_id: 'user-7',
    tags: ['billing'],
    expires_in_seconds: 540,
  });
  await api.dispose();
  await watched(portal.db, asked.id, 'pending');
  const context = await browser.newContext({
    baseURL: portal.url,
    extraHTTPHeaders: { 'X-Forwarded-Email': 'bob@example.com' },
    viewport: { width: 390, height: 844 },
    colorScheme: 'dark',
    timezoneId: 'Europe/Paris',
  });
  try {
    const page = await context.newPage();
    await page.goto('insights');
    await expect(page.getByTestId('now-pending')).toHaveText('1');
    // Expires within 10 minutes and nobody holds it.
    await expect(page.getByTestId('now-expiring')).toHaveText('1');
    await expect(page.getByTestId('outcome-summary')).toHaveText(
      '1 asked: 0 answered, 0 missed (expired with nobody acting), 0 closed otherwise, 1 still waiting.',
    );
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await expectNoA11yViolations(page);

    await page.getByRole('combobox', { name: 'Range' }).selectOption({ label: 'Last 24 hours' });
    await page.getByRole('combobox', { name: 'System' }).selectOption({ label: 'Reflexio' });
    await page.getByRole('textbox', { name: 'Tag' }).fill('billing');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/range=24h/);
    await expect(page).toHaveURL(/source=reflexio/);
    await expect(page).toHaveURL(/tag=billing/);
    // By the hour: the 24 whole hours to the end of this one (and the table's heading row).
    await expect(
      page.getByRole('table', { name: /Questions per hour/ }).getByRole('row'),
    ).toHaveCount(25);
    await page.reload();
    await expect(page.getByRole('textbox', { name: 'Tag' })).toHaveValue('billing');
    await expect(page.getByTestId('outcome-summary')).toContainText('1 asked');

    await page.getByRole('textbox', { name: 'Tag' }).fill('legal');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByTestId('outcome-summary')).toContainText('0 asked');
    await expect(page.getByTestId('now-pending')).toHaveText('0');

    await page.getByRole('combobox', { name: 'Range' }).selectOption({ label: 'Custom' });
    await page.getByRole('textbox', { name: 'From', exact: true }).fill('2026-01-01');
    await page.getByRole('textbox', { name: 'To', exact: true }).fill('2026-01-07');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/range=custom&from=2026-01-01&to=2026-01-07/);
    await expect(
      page.getByRole('table', { name: /Questions per day/ }).getByRole('row'),
    ).toHaveCount(8);
    await expectNoA11yViolations(page);
  } finally {
    await context.close();
  }
});
