import { demoIds } from '../mock/seed';
import { drawer, expect, row, test } from './fixtures';

test('a draft on a question that closed loses its Draft badge once the reviewer has seen it closed', async ({
  page,
  mock,
}) => {
  const id = demoIds.pendingYesNo;
  const draftBadge = row(page, id).getByText('Draft', { exact: true });
  await page.goto(`questions/${id}`);
  const question = drawer(page);
  await question.getByRole('textbox', { name: 'Answer' }).fill('Yes, but only for 6 seats');
  await question.getByRole('button', { name: 'Close question' }).click();
  await expect(question).toBeHidden();
  await expect(draftBadge).toBeVisible();

  // Someone else cancels it: in the Cancelled view it still says Draft, as the reviewer has not
  // seen it closed yet.
  await mock.asOtherReviewer(id, 'cancel');
  await page.goto('questions?status=cancelled');
  await expect(draftBadge).toBeVisible();

  // Opened, it says it is closed and keeps the draft's text; closed again, the badge is gone.
  await row(page, id).getByRole('link').click();
  await expect(question.getByText('Cancelled without an answer')).toBeVisible();
  await expect(question.getByRole('textbox', { name: 'Answer' })).toHaveValue(
    'Yes, but only for 6 seats',
  );
  await question.getByRole('button', { name: 'Close question' }).click();
  await expect(question).toBeHidden();
  await expect(row(page, id)).toBeVisible();
  await expect(draftBadge).toHaveCount(0);
  await page.reload();
  await expect(row(page, id)).toBeVisible();
  await expect(draftBadge).toHaveCount(0);
  // The draft is still there to copy.
  await row(page, id).getByRole('link').click();
  await expect(question.getByRole('textbox', { name: 'Answer' })).toHaveValue(
    'Yes, but only for 6 seats',
  );
});
