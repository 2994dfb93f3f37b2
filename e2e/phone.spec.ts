import type { Locator, Page } from '@playwright/test';
import { demoIds } from '../mock/seed';
import {
  drawer,
  expect,
  expectAppRunning,
  expectNoA11yViolations,
  expectWholeChoices,
  row,
  snapshot,
  test,
} from './fixtures';

const WIDTH = 375;
test.use({ viewport: { width: WIDTH, height: 780 }, hasTouch: true, isMobile: true });

/** Wholly inside the window, sideways and up and down. */
async function expectInView(page: Page, locator: Locator) {
  const box = await locator.boundingBox();
  const height = await page.evaluate(() => window.innerHeight);
  expect(box).not.toBeNull();
  if (!box) return;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(WIDTH);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(height);
}

/** A phone browser widens the page to what sticks out: nothing may. */
async function expectNothingSticksOut(page: Page) {
  expect(
    await page.evaluate(() => [window.innerWidth, document.documentElement.scrollWidth]),
  ).toEqual([WIDTH, WIDTH]);
}

test('on a 375 px phone every status tab is reachable and in view, the refresh line is aligned and there is no "/" hint', async ({
  page,
}) => {
  await page.goto('questions');
  await expect(row(page, demoIds.pendingSoonest)).toBeVisible();
  await expectNothingSticksOut(page);
  const statuses = page.getByRole('radiogroup', { name: 'Status' });
  const labels = ['Pending', 'Resolved', 'Expired', 'Superseded', 'Cancelled', 'All'];
  for (const label of labels) {
    const tab = statuses.locator('label').filter({ hasText: new RegExp(`^${label}`) });
    await tab.tap();
    await expect(tab.getByRole('radio')).toBeChecked();
    await expect(page).toHaveURL(label === 'Pending' ? /\/questions$/ : /status=/);
    await expectInView(page, tab);
  }
  await expectNothingSticksOut(page);

  // The refresh line: on the density switch's line, its button at the right edge of the filters.
  const refresh = page.getByRole('button', { name: 'Refresh now' });
  const updated = page.getByTestId('updated-at');
  const density = page.getByRole('radiogroup', { name: 'Density' });
  const search = page.getByRole('searchbox', { name: 'Search' });
  const [r, u, d, s] = await Promise.all(
    [refresh, updated, density, search].map(async (each) => each.boundingBox()),
  );
  if (!r || !u || !d || !s) throw new Error('a part of the toolbar is not on screen');
  const middle = (box: { y: number; height: number }) => box.y + box.height / 2;
  expect(Math.abs(middle(r) - middle(d))).toBeLessThanOrEqual(2);
  expect(Math.abs(middle(u) - middle(d))).toBeLessThanOrEqual(2);
  expect(Math.abs(r.x + r.width - (s.x + s.width))).toBeLessThanOrEqual(1);
  expect(Math.abs(d.x - s.x)).toBeLessThanOrEqual(1);

  // A touch screen has no "/" key hint.
  expect(await page.evaluate(() => matchMedia('(hover: none) and (pointer: coarse)').matches)).toBe(
    true,
  );
  await expect(page.locator('kbd', { hasText: '/' })).toBeHidden();
  // The pickers, two to a line, show their whole choices (the sort one was cut short).
  for (const name of ['Source', 'Sort']) {
    await expectWholeChoices(page.getByRole('combobox', { name }));
  }
  await snapshot(page, 'phone-list');
  await expectNoA11yViolations(page);
});

test('on a 375 px phone nothing in the drawer is cut off, the id’s Copy button included', async ({
  page,
}) => {
  await page.goto(`questions/${demoIds.pendingYesNo}`);
  // The app's drawer: the server's first screen lays its own pane over the list until then.
  await expectAppRunning(page);
  const question = drawer(page);
  await expect(question.getByRole('textbox', { name: 'Answer' })).toBeVisible();
  await expectNothingSticksOut(page);
  await expectInView(page, question.getByRole('button', { name: 'Close question' }));
  const copy = question.getByRole('button', { name: 'Copy', exact: true });
  await copy.scrollIntoViewIfNeeded();
  await expectInView(page, copy);
  // Its whole word, not cut short.
  expect(await copy.evaluate((button) => button.scrollWidth <= button.clientWidth)).toBe(true);
  const cut = await question.evaluate((dialog) =>
    [...dialog.querySelectorAll('*')]
      .filter((el) => {
        const box = el.getBoundingClientRect();
        return box.width > 0 && (box.left < -1 || box.right > window.innerWidth + 1);
      })
      .map((el) => el.tagName),
  );
  expect(cut).toEqual([]);
  await snapshot(page, 'phone-drawer');
  await expectNoA11yViolations(page);
});
