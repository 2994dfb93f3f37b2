import type { Page } from '@playwright/test';
import { demoIds } from '../mock/seed';
import { expect, expectNoA11yViolations, row, snapshot, test } from './fixtures';

/** Rows wholly inside the window, and whether each of them is one line (status, source, countdown and text side by side). */
async function rowsInView(page: Page) {
  return page.evaluate(() => {
    const rows = [...document.querySelectorAll<HTMLElement>('[data-question-id]')];
    return rows
      .filter((r) => {
        const box = r.getBoundingClientRect();
        return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
      })
      .map((r) => {
        const parts = [
          r.querySelector('[data-source]'),
          r.querySelector('[data-row-link]'),
          r.querySelector('[data-urgency]'),
        ].filter((part): part is Element => part !== null);
        const middles = parts.map((part) => {
          const box = part.getBoundingClientRect();
          return box.top + box.height / 2;
        });
        return {
          height: r.getBoundingClientRect().height,
          parts: parts.length,
          oneLine: Math.max(...middles) - Math.min(...middles) < 4,
          textCut: (() => {
            const text = r.querySelector<HTMLElement>('[data-row-link] > span');
            return text ? getComputedStyle(text).textOverflow : '';
          })(),
        };
      });
  });
}

const density = (page: Page) => page.getByRole('radiogroup', { name: 'Density' });

test('compact density fits 15 questions on a 1280 × 800 screen, one line each, and is remembered', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('questions');
  await expect(row(page, demoIds.pendingSoonest)).toBeVisible();
  await expect(density(page).getByRole('radio', { name: 'Comfortable' })).toBeChecked();
  const comfortable = await rowsInView(page);
  expect(comfortable.length).toBeLessThan(15);

  await density(page).getByText('Compact').click();
  await expect(density(page).getByRole('radio', { name: 'Compact' })).toBeChecked();
  await expect(row(page, demoIds.pendingSoonest)).toHaveCSS('display', 'flex');
  const compact = await rowsInView(page);
  expect(compact.length).toBeGreaterThanOrEqual(15);
  for (const each of compact) {
    expect(each).toMatchObject({ parts: 3, oneLine: true, textCut: 'ellipsis' });
  }
  // The Pending view shows one status: its rows leave the badge out.
  await expect(page.locator('[data-question-id] .status-badge')).toHaveCount(0);
  await snapshot(page, 'density-compact');

  // Remembered: a reload keeps it.
  await page.reload();
  await expect(row(page, demoIds.pendingSoonest)).toBeVisible();
  await expect(density(page).getByRole('radio', { name: 'Compact' })).toBeChecked();
  expect((await rowsInView(page)).length).toBeGreaterThanOrEqual(15);

  // All statuses: each row says its own.
  await page.getByRole('radiogroup', { name: 'Status' }).getByText(/^All/).click();
  await expect(row(page, demoIds.superseded).locator('.status-badge')).toHaveText('Superseded');
  await expect(row(page, demoIds.pendingSoonest).locator('.status-badge')).toHaveText('Pending');

  // Back to comfortable, by keyboard (arrow keys in the radio group).
  await density(page).getByRole('radio', { name: 'Compact' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(density(page).getByRole('radio', { name: 'Comfortable' })).toBeChecked();
  await expect(row(page, demoIds.pendingSoonest)).toHaveCSS('display', 'grid');
});

// Both densities in one test per theme (the comfortable list of pending questions is scanned by
// look.spec.ts): every status's badge in both, then compact pending rows.
for (const colorScheme of ['light', 'dark'] as const) {
  test(`the list passes an axe scan, ${colorScheme} theme, comfortable and compact rows`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await page.goto('questions?status=all');
    await expect(row(page, demoIds.superseded)).toBeVisible();
    await expect(density(page).getByRole('radio', { name: /comfortable/i })).toBeChecked();
    await expectNoA11yViolations(page);

    await density(page).getByText('Compact').click();
    await expect(row(page, demoIds.superseded)).toHaveCSS('display', 'flex');
    await expectNoA11yViolations(page);
    await page.goto('questions');
    await expect(row(page, demoIds.pendingSoonest)).toBeVisible();
    await expect(density(page).getByRole('radio', { name: /compact/i })).toBeChecked();
    await expectNoA11yViolations(page);
  });
}
