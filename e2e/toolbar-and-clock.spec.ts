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
