import { expect, expectNoA11yViolations, type MockControl, row, test } from './fixtures';

async function askMany(mock: MockControl, count: number) {
  await mock.reset('empty');
  return mock.askAll(
    Array.from({ length: count }, (_, k) => ({
      question: `Bulk question ${k + 1}: rotate the key?`,
      expires_in_seconds: 3600 + (k + 1) * 60,
    })),
  );
}

const tick = (i: number) => ({ name: `Select: Bulk question ${i}: rotate the key?` });

test('bulk not applicable of 5, one of them closed meanwhile: per-question results', async ({
  page,
  mock,
}) => {
  // Three axe scans and five actions in a row: three times the usual time.
  test.slow();
  const ids = await askMany(mock, 6);
  // No animations: the axe scans below look at the dialog, not at it fading in.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('questions');
  await expect(page.getByRole('checkbox', tick(1))).toBeVisible();
  // A click, then a Shift-click: questions 1 to 5.
  await page.getByRole('checkbox', tick(1)).click();
  await page.getByRole('checkbox', tick(5)).click({ modifiers: ['Shift'] });
  const bar = page.getByRole('toolbar', { name: 'Selected questions' });
  await expect(bar).toContainText('5 selected');
  await expect(page.getByRole('checkbox', tick(6))).not.toBeChecked();
  await expectNoA11yViolations(page);

  await bar.getByRole('button', { name: 'Not applicable…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Mark 5 questions not applicable?' });
  await expect(dialog.getByRole('button', { name: 'Keep them' })).toBeFocused();
  await expectNoA11yViolations(page, '[role="dialog"]');
  // Someone else cancels question 3 after the reviewer confirmed, just before its own request
  // reaches the system: no refresh can take it out of the batch first.
  await page.route(`**/api/pending_tool_calls/${ids[2]}/not_applicable`, async (route) => {
    await mock.asOtherReviewer(ids[2] as string, 'cancel');
    await route.continue();
  });
  await dialog.getByRole('button', { name: 'Mark not applicable (5)' }).click();

  // Five requests in turn, each waiting for the list to refresh: more than the usual wait.
  await expect(dialog.getByText('Marked 4 of 5 not applicable.')).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByTestId('bulk-failures')).toContainText('Bulk question 3');
  await expect(dialog.getByTestId('bulk-failures')).toContainText('Someone else got there first');
  await expectNoA11yViolations(page, '[role="dialog"]');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();

  const calls = new Map((await mock.calls()).map((call) => [call.id, call]));
  for (const i of [0, 1, 3, 4])
    expect(calls.get(ids[i] as string)?.result).toMatchObject({ not_applicable: true });
  expect(calls.get(ids[2] as string)?.status).toBe('cancelled');
  expect(calls.get(ids[5] as string)?.status).toBe('pending');
  // Nothing sent twice: the failed one is not retried, and stays selected (still listed until the
  // next refresh drops it from Pending; then nothing is selected).
  await expect(row(page, ids[0] as string)).toHaveCount(0);
  await expect(page.getByRole('checkbox', tick(6))).not.toBeChecked();
});

test('x ticks the focused row; the header checkbox ticks the view; Answer one text to all', async ({
  page,
  mock,
}) => {
  test.slow();
  const ids = await askMany(mock, 3);
  await page.goto('questions');
  await expect(page.getByRole('checkbox', tick(1))).toBeVisible();
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('x');
  await expect(page.getByRole('checkbox', tick(2))).toBeChecked();
  await expect(page.getByRole('checkbox', tick(1))).not.toBeChecked();
  const bar = page.getByRole('toolbar', { name: 'Selected questions' });
  await expect(bar).toContainText('1 selected');
  await bar.getByRole('checkbox').check();
  await expect(bar).toContainText('3 selected');

  await bar.getByRole('button', { name: 'Answer all…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Answer 3 questions with one text?' });
  await dialog.getByRole('textbox', { name: 'Answer' }).fill('Yes, rotate it tonight.');
  await dialog.getByRole('button', { name: 'Send to all (3)' }).click();
  await expect(dialog.getByText('Answered 3 of 3.')).toBeVisible({ timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Done' }).click();
  const calls = new Map((await mock.calls()).map((call) => [call.id, call]));
  for (const id of ids)
    expect(calls.get(id)?.result).toEqual({ answer: 'Yes, rotate it tonight.' });
  await expect(bar).toBeHidden();
});
