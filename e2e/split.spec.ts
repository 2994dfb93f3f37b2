import type { Page } from '@playwright/test';
import { demoIds } from '../mock/seed';
import {
  drawer,
  expect,
  expectListComplete,
  expectNoA11yViolations,
  expectWholeChoices,
  row,
  snapshot,
  test,
} from './fixtures';

/** The order of the Pending list (soonest expiry first), as shown. */
const rowIds = (page: Page) =>
  page
    .locator('[data-question-id]')
    .evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.questionId as string));

/** The row is wholly in the window, beside the pane (not under the header or the pane). */
async function expectRowInView(page: Page, id: string) {
  await expect
    .poll(async () => {
      const box = await row(page, id).boundingBox();
      const pane = await drawer(page).boundingBox();
      if (!box || !pane) return 'not on screen';
      const height = await page.evaluate(() => window.innerHeight);
      if (box.y < 56 || box.y + box.height > height) return 'scrolled out of view';
      return box.x + box.width <= pane.x ? 'in view' : 'under the pane';
    })
    .toBe('in view');
}

test.use({ viewport: { width: 1440, height: 900 } });

test('split view at 1440 px: the list stays usable beside the open question, and follows j/k', async ({
  page,
}) => {
  await page.goto('questions');
  await expect(row(page, demoIds.pendingSoonest)).toBeVisible();
  await expectListComplete(page);
  const ids = await rowIds(page);
  const second = ids[1] as string;
  const third = ids[2] as string;

  await row(page, demoIds.pendingSoonest).getByRole('link').click();
  const pane = drawer(page);
  await expect(pane.getByTestId('question-text')).toBeVisible();
  await expect(pane).toHaveAttribute('aria-modal', 'false');
  // Not dimmed, not inert: nothing covers the list, and its rows still take clicks.
  await expect(page.locator('[inert]')).toHaveCount(0);
  await expect(page.locator('.mantine-Drawer-overlay, .mantine-Overlay-root')).toHaveCount(0);
  const list = await page.getByRole('list', { name: 'Questions' }).boundingBox();
  const paneBox = await pane.boundingBox();
  expect(list && paneBox && list.x + list.width <= paneBox.x).toBe(true);
  await expect(row(page, demoIds.pendingSoonest).getByRole('link')).toHaveAttribute(
    'aria-current',
    'true',
  );
  await snapshot(page, 'split-view');
  await expectNoA11yViolations(page);

  // Another row, clicked beside the open question, opens in the pane.
  await row(page, third).getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/questions/${third}$`));
  await expect(row(page, third).getByRole('link')).toHaveAttribute('aria-current', 'true');
  await expect(row(page, demoIds.pendingSoonest).getByRole('link')).not.toHaveAttribute(
    'aria-current',
  );

  // k and j move the open question; the list follows (the row marked, in view).
  await page.keyboard.press('k');
  await expect(page).toHaveURL(new RegExp(`/questions/${second}$`));
  await expect(row(page, second).getByRole('link')).toHaveAttribute('aria-current', 'true');
  for (let index = 2; index <= 9; index++) {
    await page.keyboard.press('j');
    await expect(page).toHaveURL(new RegExp(`/questions/${ids[index]}$`));
    // Rendered (the URL changes a moment before): the next j steps from this one.
    await expect(row(page, ids[index] as string).getByRole('link')).toHaveAttribute(
      'aria-current',
      'true',
    );
  }
  const tenth = ids[9] as string;
  await expect(row(page, tenth).getByRole('link')).toHaveAttribute('aria-current', 'true');
  await expectRowInView(page, tenth);

  // The list scrolls on its own while the question stays open.
  await page.mouse.move(300, 500);
  await page.mouse.wheel(0, -3000);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await expect(pane).toBeVisible();

  // Closing returns to the list at full width, not to the questions opened before.
  await pane.getByRole('button', { name: 'Close question' }).click();
  await expect(page).toHaveURL(/\/questions$/);
  await expect(pane).toBeHidden();
});

test('at 1280 px, the narrowest split view, the pickers beside the question show their whole choices', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('questions');
  await row(page, demoIds.pendingSoonest).getByRole('link').click();
  await expect(drawer(page)).toHaveAttribute('aria-modal', 'false');
  await expectWholeChoices(page.getByRole('combobox', { name: 'Sort' }));
  await expectWholeChoices(page.getByRole('combobox', { name: 'Source' }));
  // Still one line of pickers below the search box.
  const tops = await Promise.all(
    ['Source', 'Tag', 'User', 'Sort'].map(async (name) =>
      Math.round((await page.getByRole('combobox', { name }).boundingBox())?.y ?? -1),
    ),
  );
  expect(new Set(tops).size).toBe(1);
});

test('below 1280 px the question opens over the list, as a modal drawer', async ({ page }) => {
  await page.setViewportSize({ width: 1279, height: 800 });
  await page.goto('questions');
  await row(page, demoIds.pendingSoonest).getByRole('link').click();
  const question = drawer(page);
  await expect(question.getByTestId('question-text')).toBeVisible();
  await expect(question).toHaveAttribute('aria-modal', 'true');
  await expect(page.locator('[inert]')).toHaveCount(1);
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`split view passes an axe scan in the ${colorScheme} theme, compact rows`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await page.addInitScript(() => localStorage.setItem('qi:density', 'compact'));
    await page.goto(`questions/${demoIds.pendingYesNo}`);
    await expect(drawer(page).getByRole('textbox', { name: 'Answer' })).toBeVisible();
    await expect(row(page, demoIds.pendingYesNo).getByRole('link')).toHaveAttribute(
      'aria-current',
      'true',
    );
    await expectNoA11yViolations(page);
  });
}
