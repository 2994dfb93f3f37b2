import { type BrowserContext, test as base, request as playwrightRequest } from '@playwright/test';
import { type Db, openPostgres } from '../server/db/engine';
import { startTestPostgres, type TestPostgres } from '../server/db/test-postgres';
import { drawer, expect, expectNoA11yViolations, MockControl } from './fixtures';
import { startReviewerPortal } from './reviewer-portal';

/**
 * The Insights page behind an SSO proxy, over a real PostgreSQL (DATABASE_URL) the journey can
 * also write: until the watcher runs in the server, the journey records what it would (each
 * question's first seen, and its expiry) in watched_questions itself. The answer goes through the
 * portal, so its trail entry is the server's own.
 */
const test = base.extend<object, { portal: { url: string; db: Db } }>({
  portal: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature.
    async ({}, use) => {
      const postgres: TestPostgres = await startTestPostgres();
      const url = await postgres.createDatabase();
      const portal = await startReviewerPortal({ DATABASE_URL: url });
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
  // Each journey counts its own questions (the figures are the whole team's).
  for (const table of ['watched_questions', 'audit_entries', 'audit_outcomes', 'claims']) {
    await portal.db.query(`DELETE FROM ${table}`);
  }
});

/** What the watcher records when it first sees a question (server/watch/store.ts). */
async function seen(db: Db, id: string, asked: string, minutesAgo: number, expiresAt: string) {
  await db.query(
    `INSERT INTO watched_questions (source_id, question_id, kind, unit_id, asked, user_id, tags,
       expires_at, status, first_seen)
     VALUES ('reflexio', $1, 'reflexio', $1, $2, 'user-7', '["billing"]', $3, 'pending',
             now() - make_interval(mins => $4))`,
    [id, asked, expiresAt, minutesAgo],
  );
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
  const api = await playwrightRequest.newContext({ baseURL: portal.url });
  const mock = new MockControl(api, `insights-${tag}`);
  const contexts: BrowserContext[] = [];
  try {
    await mock.reset('empty');
    const answered = await mock.ask({ question: 'Ship the release?', expires_in_seconds: 3600 });
    const missed = await mock.ask({
      question: 'Rotate the keys tonight?',
      expires_in_seconds: 3600,
    });
    const later = new Date(Date.now() + 3_600_000).toISOString();
    await seen(portal.db, answered.id, 'Ship the release?', 4, later);
    await seen(portal.db, missed.id, 'Rotate the keys tonight?', 6, later);

    const context = await signedIn(browser, portal.url, alice);
    contexts.push(context);
    await context.addCookies([{ name: 'mock_tenant', value: mock.tenant, url: portal.url }]);
    const page = await context.newPage();
    await page.goto(`questions/${answered.id}`);
    await drawer(page).getByRole('textbox', { name: 'Answer' }).fill('Yes, ship it');
    await drawer(page).getByRole('button', { name: 'Answer', exact: true }).click();
    await expect(page.getByText('Answer sent')).toBeVisible();

    // The other one expires with nobody acting; the watcher records it closed.
    await mock.asOtherReviewer(missed.id, 'expire');
    await portal.db.query(
      `UPDATE watched_questions SET status = 'expired', expires_at = now(), closed_seen = now()
        WHERE question_id = $1`,
      [missed.id],
    );

    // Its toast closes by itself (its close button has no name: axe would flag the toast, not this page).
    await expect(page.getByText('Answer sent')).toBeHidden();
    await page.getByRole('link', { name: 'Insights' }).click();
    await expect(page).toHaveURL(/\/insights$/);
    await expect(page.getByRole('heading', { name: 'Insights', level: 2 })).toBeVisible();
    await expect(page.getByTestId('outcome-summary')).toHaveText(
      '2 asked: 1 answered, 1 missed (expired with nobody acting), 0 closed otherwise, 0 still waiting.',
    );
    // Seen 4 minutes before the answer: one wait of 4 minutes and however long the journey took.
    await expect(page.getByTestId('wait-summary')).toContainText(
      /^Median [4-9]m \d\ds, 90th percentile [4-9]m \d\ds, over 1 of 2 questions answered through the portal\./,
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
    expect(total).toMatch(/^total,2,1,1,0,0,([2-5]\d\d(\.\d)?),\1$/);
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
  const later = new Date(Date.now() + 600_000).toISOString();
  await seen(portal.db, 'q-filters-1', 'Refund the order?', 30, later);
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
