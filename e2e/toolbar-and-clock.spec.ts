import { demoIds } from '../mock/seed';
import { drawer, expect, row, test } from './fixtures';

for (const width of [1280, 1440]) {
  test(`split view at ${width} px: the status tabs stay on one line`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`questions/${demoIds.pendingSoonest}`);
    await expect(drawer(page).getByTestId('question-text')).toBeVisible();
    await expect(row(page, demoIds.pendingInsideCacheWindow)).toBeVisible();
    const tabs = page.getByRole('radiogroup', { name: /status/i }).getByRole('radio');
    await expect(tabs).toHaveCount(6);
    await expect
      .poll(async () => {
        const tops = await tabs.evaluateAll((radios) =>
          radios.map((radio) =>
            Math.round((radio.closest('label') ?? radio).getBoundingClientRect().top),
          ),
        );
        return new Set(tops).size;
      })
      .toBe(1);
  });
}

test("a moved mock clock is not blamed on the computer's", async ({ page, mock }) => {
  await mock.call('POST', 'clock', { advanceMs: 20 * 60_000 });
  await page.goto('questions');
  const notice = page.getByRole('status').filter({ hasText: 'clock' });
  await expect(notice).toHaveText(
    "This computer's clock is 20 minutes behind the server's; times here follow the server.",
  );
  await expect(notice).not.toContainText('slow');
});

// What comes after the first rows (the clock notice, the Claimed filter: each with code of its
// own, held back here until the rows are measured) never moves them. Above the list, the notice
// pushed every row down under a reviewer's pointer as they clicked (a click on a row then opened
// nothing), and on a phone so did the Claimed filter's line.
for (const width of [1280, 375]) {
  test(`the clock notice and the Claimed filter come without moving the rows (${width} px)`, async ({
    page,
    mock,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await mock.call('POST', 'clock', { advanceMs: 20 * 60_000 });
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/(clock-skew-notice|parts)-[\w-]+\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto('questions');
    const first = page.locator('[data-question-id]').first();
    await expect(first).toBeVisible();
    const top = () => first.evaluate((node) => node.getBoundingClientRect().top);
    const before = await top();
    await expect(page.getByTestId('claimed-filter')).toHaveCount(0);
    release();
    await expect(page.getByRole('status').filter({ hasText: 'clock' })).toBeVisible();
    await expect(page.getByTestId('claimed-filter')).toBeVisible();
    expect(await top()).toBe(before);
  });
}
