// The Insights page in the static demo: its Service Worker answers portal-api/insights over a few
// days of made-up activity (demo/insights-history.ts), with the server's own definitions.
import { expectNoA11yViolations } from '../fixtures';
import { expect, test } from './fixtures';

// A first visit installs the Service Worker (it caches the whole app) before the portal starts.
const firstVisit = { timeout: 30_000 };

test('the demo shows a few days of made-up activity, with its charts and CSV', async ({ page }) => {
  test.slow();
  await page.goto('./');
  await expect(page.getByRole('textbox', { name: 'You are' })).toHaveValue('Reviewer', firstVisit);
  await page.getByRole('link', { name: 'Insights' }).click();
  await expect(page.getByRole('heading', { name: 'Insights', level: 2 })).toBeVisible();
  await expect(page.getByTestId('wait-summary')).toContainText(
    /^Median [^,]+, 90th percentile [^,]+, over \d+ of \d+ questions/,
  );
  await expect(page.getByTestId('outcome-summary')).toContainText(/[1-9]\d* missed/);
  await expect(page.getByTestId('wait-chart').locator('svg').first()).toBeVisible();
  const missed = page.getByRole('region', { name: 'Last missed questions' });
  await expect(missed.getByRole('button').first()).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Actions per reviewer' }).getByText('sam@example.com'),
  ).toBeVisible();
  await expectNoA11yViolations(page);

  // Through the Service Worker, as the page's link fetches it.
  const href = await page
    .getByRole('region', { name: 'Questions per system' })
    .getByRole('link', { name: /Download .* as CSV/ })
    .getAttribute('href');
  const csv = await page.evaluate(async (address) => (await fetch(address as string)).text(), href);
  expect(csv.split('\r\n')[0]).toBe('source,questions');
  expect(csv).toMatch(/\r\nreflexio,\d+\r\n/);
});
