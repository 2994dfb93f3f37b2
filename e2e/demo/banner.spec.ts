import type { Locator } from '@playwright/test';
import { demoIds } from '../../mock/seed';
import { drawer, expect, row, test } from './fixtures';

// A first visit installs the Service Worker (it caches the whole app) before the portal starts.
const firstVisit = { timeout: 30_000 };

/** Nothing lies over the element's middle: a click there reaches it. */
async function expectUncovered(locator: Locator) {
  await expect
    .poll(() =>
      locator.evaluate((element) => {
        const box = element.getBoundingClientRect();
        const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
        return hit !== null && element.contains(hit);
      }),
    )
    .toBe(true);
}

for (const width of [1440, 1024]) {
  test(`at ${width} px the demo's banner leaves the open question's title and close button free`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('./');
    await expect(page.getByRole('region', { name: 'Demo' })).toBeVisible(firstVisit);
    await row(page, demoIds.pendingYesNo).getByRole('link').click(firstVisit);
    const question = drawer(page);
    await expect(question.getByTestId('question-text')).toBeVisible();
    await expectUncovered(question.getByRole('heading', { name: 'Question' }));
    const close = question.getByRole('button', { name: 'Close question' });
    await expectUncovered(close);
    // The click closes the question (it toggled the theme when the header lay over it).
    await close.click();
    await expect(question).toHaveCount(0);
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
  });
}
