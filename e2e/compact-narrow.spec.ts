import type { Page } from '@playwright/test';
import { demoIds } from '../mock/seed';
import { drawer, expect, row, test } from './fixtures';

/** For each compact row on screen: about how many characters of its question text show. */
function visibleCharacters(page: Page) {
  return page.locator('[data-question-id]').evaluateAll((rows) =>
    rows
      .filter((r) => {
        const box = r.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      })
      .map((r) => {
        const text = r.querySelector<HTMLElement>('[data-row-link] > span');
        if (!text) return 0;
        const length = (text.textContent ?? '').length;
        // One line, cut with an ellipsis: what shows is the share of its width that fits.
        return Math.floor(length * Math.min(1, text.clientWidth / text.scrollWidth));
      }),
  );
}

async function compact(page: Page) {
  const density = page.getByRole('radiogroup', { name: 'Density' });
  await density.getByText('Compact').click();
  await expect(density.getByRole('radio', { name: 'Compact' })).toBeChecked();
}

test('split view at 1280 px: compact rows show at least 40 characters of their question', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`questions/${demoIds.pendingSoonest}`);
  await expect(drawer(page).getByTestId('question-text')).toBeVisible();
  await compact(page);
  await expect(row(page, demoIds.pendingInsideCacheWindow)).toBeVisible();
  const shown = await visibleCharacters(page);
  expect(shown.length).toBeGreaterThan(3);
  for (const each of shown) expect(each).toBeGreaterThanOrEqual(40);
});

test('a phone at 375 px: compact rows show at least 40 characters of their question', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('questions');
  await expect(row(page, demoIds.pendingSoonest)).toBeVisible();
  await compact(page);
  const shown = await visibleCharacters(page);
  expect(shown.length).toBeGreaterThan(3);
  for (const each of shown) expect(each).toBeGreaterThanOrEqual(40);
});
