// The demo on a plain static host (Python's http.server: an address it has no file for gets its
// own 404 page, no 404.html). Every link the demo hands out is a hash link, which the host
// answers with the start page: it opens its question on a first visit.
import { demoIds } from '../../mock/seed';
import { drawer, expect, row, test } from './fixtures';

test.use({ plainStaticHost: true });

// A first visit installs the Service Worker (it caches the whole app) before the portal starts.
const firstVisit = { timeout: 30_000 };

test('links the demo hands out open their question on a first visit from a plain static host', async ({
  page,
  browser,
  baseURL,
}) => {
  await page.goto('./');
  await row(page, demoIds.pendingYesNo).getByRole('link').click(firstVisit);
  await expect(drawer(page).getByTestId('question-text')).toBeVisible();
  // The address bar, and a row's link (what "Copy link" and a new tab take).
  await expect(page).toHaveURL(new RegExp(`/qi-demo/#/questions/${demoIds.pendingYesNo}$`));
  const address = page.url();
  const href = await row(page, demoIds.pendingInsideCacheWindow)
    .getByRole('link')
    .evaluate((link) => (link as HTMLAnchorElement).href);
  expect(href).toMatch(new RegExp(`/qi-demo/#/questions/${demoIds.pendingInsideCacheWindow}$`));

  for (const [link, id] of [
    [address, demoIds.pendingYesNo],
    [href, demoIds.pendingInsideCacheWindow],
  ] as const) {
    // A first visit: a browser that has never seen the demo (no worker, nothing cached).
    const fresh = await browser.newContext();
    try {
      const other = await fresh.newPage();
      const response = await other.goto(link);
      expect(response?.status()).toBe(200);
      await expect(row(other, id).getByRole('link')).toHaveAttribute(
        'aria-current',
        'true',
        firstVisit,
      );
      await expect(drawer(other).getByTestId('question-text')).toBeVisible();
    } finally {
      await fresh.close();
    }
  }
  expect(baseURL).toMatch(/\/qi-demo\/$/);
});
