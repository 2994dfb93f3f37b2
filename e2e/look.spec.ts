import { demoIds } from '../mock/seed';
import { drawer, expect, expectNoA11yViolations, snapshot, test } from './fixtures';

for (const colorScheme of ['light', 'dark'] as const) {
  test(`list and drawer pass an axe scan in the ${colorScheme} theme`, async ({ page }) => {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await page.goto('questions');
    await expect(page.getByRole('list', { name: 'Questions' })).toBeVisible();
    await expectNoA11yViolations(page);
    await page.goto(`questions/${demoIds.pendingYesNo}`);
    await expect(drawer(page).getByRole('textbox', { name: 'Answer' })).toBeVisible();
    await expectNoA11yViolations(page);
    await page.goto(`questions/${demoIds.superseded}?status=superseded`);
    await expect(drawer(page).getByText('Replaced by a newer answer')).toBeVisible();
    await expectNoA11yViolations(page);
  });
}

const viewports = {
  desktop: { width: 1280, height: 860 },
  phone: { width: 375, height: 780 },
};

for (const [device, viewport] of Object.entries(viewports)) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`screenshots: ${device}, ${colorScheme}`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
      await page.goto('questions');
      await expect(page.getByRole('list', { name: 'Questions' })).toBeVisible();
      // Nothing may stick out sideways, on a phone least of all.
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await snapshot(page, `list-${device}-${colorScheme}`);
      // The page scrolls with the wheel (a closed drawer must not lock it).
      await page.mouse.move(viewport.width / 2, viewport.height / 2);
      await page.mouse.wheel(0, 1500);
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
      await page.goto(`questions/${demoIds.pendingYesNo}`);
      await expect(drawer(page).getByRole('textbox', { name: 'Answer' })).toBeVisible();
      await drawer(page).getByRole('textbox', { name: 'Answer' }).fill('Yes, issue it');
      await snapshot(page, `drawer-${device}-${colorScheme}`);
    });
  }
}
