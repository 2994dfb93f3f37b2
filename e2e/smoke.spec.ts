import { expect, test } from './fixtures';

test('the inbox opens on the pending questions from the API', async ({ page, mock }) => {
  const pending = (await mock.calls()).filter(
    (call) => call.status === 'pending' && call.org_id === 'org_demo',
  );
  expect(pending.length).toBeGreaterThan(3);

  await page.goto('./');
  await expect(page).toHaveURL(/\/questions$/);
  const rows = page.getByRole('list', { name: 'Questions' }).getByRole('listitem');
  await expect(rows).toHaveCount(pending.length);
  const sample = pending.find((call) => String(call.question_text).length < 200);
  await expect(page.getByRole('link', { name: String(sample?.question_text) })).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(`^\\(${pending.length}\\) Questions$`));
});
