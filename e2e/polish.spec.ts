import type { Route } from '@playwright/test';
import { demoIds } from '../mock/seed';
import { drawer, expect, expectListComplete, row, test } from './fixtures';

/** Issue 41's reviewer-facing polish: what the page says, and when. */

test('an action while the server is down never makes the list look fresh: only a read does', async ({
  page,
}) => {
  test.slow();
  await page.clock.install();
  await page.goto('questions');
  await expectListComplete(page);
  const updated = page.getByTestId('updated-at');
  await expect(updated).toHaveText(/^Updated /);
  // The portal's server dies (every system behind it with it): nothing it is asked answers. The
  // page's own code is already here.
  const dead = (route: Route) =>
    ['fetch', 'xhr', 'eventsource'].includes(route.request().resourceType())
      ? route.abort('connectionrefused')
      : route.continue();
  await page.route('**/*', dead);
  await page.clock.fastForward(30_000);
  await page.getByRole('button', { name: 'Refresh now' }).click();
  // After the read's retries (1, 2 and 4 s).
  await expect(page.getByText('Showing the last loaded list')).toBeVisible({ timeout: 30_000 });
  const stale = /^Refresh failed · updated (\d{2}s|\dm \d{2}s) ago$/;
  await expect(updated).toHaveText(stale);

  // An answer sent meanwhile fails too; the list is as old as it was, and says so.
  await row(page, demoIds.pendingYesNo).getByRole('link').click();
  await page.clock.fastForward(30_000);
  await expect(updated).toHaveText(stale);
  await drawer(page).getByRole('textbox', { name: 'Answer' }).fill('Yes');
  await drawer(page).getByRole('button', { name: 'Answer', exact: true }).click();
  await expect(drawer(page).getByRole('alert')).toBeVisible();
  // Read at once, as the reviewer sees it after the click (not waited for).
  expect(await updated.textContent()).toMatch(stale);
  await expect(page.getByText('Showing the last loaded list')).toBeVisible();

  // The server is back: the next read is what makes it fresh.
  await page.unroute('**/*', dead);
  await page.getByRole('button', { name: 'Refresh now' }).click();
  await expect(updated).toHaveText(/^Updated (just now|\ds ago)$/);
  await expect(page.getByText('Showing the last loaded list')).toBeHidden();
});
