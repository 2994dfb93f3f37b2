import type { Locator, Page } from '@playwright/test';
import { demoIds } from '../mock/seed';
import { drawer, expect, row, test } from './fixtures';

/** A bar above the app, as the static demo's banner or an embedding host's chrome puts there. */
async function barAboveTheApp(page: Page) {
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      const bar = document.createElement('section');
      bar.setAttribute('aria-label', 'Host bar');
      bar.style.cssText = 'height: 48px; background: #fff3bf; color: #000; padding: 12px';
      bar.textContent = 'Something above the app';
      document.body.prepend(bar);
    });
  });
}

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

for (const width of [1440, 1280, 1024, 375]) {
  test(`at ${width} px the open question's title and close button sit below what is above the app`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await barAboveTheApp(page);
    await page.goto('questions');
    await expect(page.getByText('Something above the app')).toBeVisible();
    await row(page, demoIds.pendingSoonest).getByRole('link').click();
    const question = drawer(page);
    await expect(question.getByTestId('question-text')).toBeVisible();
    await expectUncovered(question.getByRole('heading', { name: 'Question' }));
    await expectUncovered(question.getByRole('button', { name: 'Close question' }));
    // Scrolled past the bar, the pane follows the header up.
    if (width >= 1280) {
      await page.mouse.move(100, 400);
      await page.mouse.wheel(0, 400);
      await expect.poll(async () => (await question.boundingBox())?.y).toBeLessThanOrEqual(57);
      await expectUncovered(question.getByRole('button', { name: 'Close question' }));
    }
    await question.getByRole('button', { name: 'Close question' }).click();
    await expect(question).toHaveCount(0);
  });
}
