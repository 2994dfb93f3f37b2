// An inbox tab left open and not touched (a background tab, a page only glanced at) runs what
// the list needs and what the tab shows (its title's count, desktop alerts, held actions), not the
// drawer's code nor the toasts': they load at the reviewer's first input (questions-page.tsx,
// app.tsx; issue 40's heap), the toasts' also with the first toast.
import { demoIds } from '../mock/seed';
import { drawer, expect, row, test } from './fixtures';

const DRAWER_CODE = /\/assets\/question-drawer-[\w-]+\.js$/;
const PAGE_PARTS = /\/assets\/page-parts-[\w-]+\.js$/;
const TOASTS_CODE = /\/assets\/notifications-host-[\w-]+\.js$/;

for (const firstScreen of [true, false]) {
  test.describe(firstScreen ? 'the server’s first screen' : 'the browser’s own render', () => {
    test.use({ firstScreen });

    test('an untouched inbox counts its questions in the tab but never asks for the drawer’s or the toasts’ code; the first move of the pointer does, and a click opens the question', async ({
      page,
    }) => {
      const asked: string[] = [];
      page.on('request', (request) => {
        if (DRAWER_CODE.test(request.url()) || TOASTS_CODE.test(request.url()))
          asked.push(request.url());
      });
      const pageParts = page.waitForRequest(PAGE_PARTS);
      await page.goto('questions');
      await expect(row(page, demoIds.pendingYesNo)).toBeVisible();
      await pageParts;
      // The page's parts have run: the tab counts what is pending.
      await expect(page).toHaveTitle(/^\(\d+\) /);
      expect(asked).toEqual([]);

      const drawerCode = page.waitForRequest(DRAWER_CODE);
      const toastsCode = page.waitForRequest(TOASTS_CODE);
      await page.mouse.move(300, 300);
      await Promise.all([drawerCode, toastsCode]);
      await row(page, demoIds.pendingYesNo).getByRole('link').click();
      await expect(drawer(page).getByRole('textbox', { name: 'Answer' })).toBeVisible();
    });

    test('the first key pressed asks for it too, and Enter on a row opens the question', async ({
      page,
    }) => {
      const pageParts = page.waitForRequest(PAGE_PARTS);
      await page.goto('questions');
      await expect(row(page, demoIds.pendingYesNo)).toBeVisible();
      await pageParts;
      await expect(page).toHaveTitle(/^\(\d+\) /);
      const drawerCode = page.waitForRequest(DRAWER_CODE);
      await page.keyboard.press('j');
      await drawerCode;
      await expect(page.locator(':focus')).toHaveAttribute('data-row-link', 'true');
      await page.keyboard.press('Enter');
      await expect(drawer(page)).toBeVisible();
    });
  });
}
