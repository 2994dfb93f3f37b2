// The team's snippets in the static demo: its Service Worker answers portal-api/snippets with the
// server's own code (server/snippets/core.ts) and keeps them in the browser, like the trail.
import { demoIds } from '../../mock/seed';
import { drawer, expect, test } from './fixtures';

// A first visit installs the Service Worker (it caches the whole app) before the portal starts.
const firstVisit = { timeout: 30_000 };

test('a snippet saved in the demo is kept by its worker and offered again after a reload', async ({
  page,
}) => {
  test.slow();
  await page.goto(`questions/${demoIds.pendingYesNo}`);
  const box = drawer(page).getByRole('textbox', { name: 'Answer' });
  await expect(box).toBeVisible(firstVisit);
  await box.fill('Yes, issue the credit note.');
  await drawer(page).getByRole('button', { name: 'Save as snippet' }).click(firstVisit);
  const dialog = page.getByRole('dialog', { name: 'Save as snippet' });
  await dialog.getByRole('textbox', { name: 'Title' }).fill('Credit note');
  await dialog.getByRole('button', { name: 'Save snippet' }).click();
  await expect(dialog).toBeHidden();

  await page.reload();
  await drawer(page).getByRole('button', { name: 'Discard draft' }).click(firstVisit);
  await expect(box).toHaveValue('');
  await drawer(page).getByRole('button', { name: 'Team snippets' }).click();
  await page.getByRole('menuitem', { name: 'Credit note' }).click();
  await expect(box).toHaveValue('Yes, issue the credit note.');

  await page.goto('activity?action=snippet-create');
  const table = page.getByRole('table', { name: 'Activity, newest first' });
  await expect(table.getByRole('row').nth(1)).toContainText('Team snippet “Credit note”');
});
