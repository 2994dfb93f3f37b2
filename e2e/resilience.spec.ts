import { demoIds } from '../mock/seed';
import { drawer, expect, row, test } from './fixtures';

const answerButton = { name: 'Answer', exact: true } as const;

test('a draft survives a reload, and is marked in the list', async ({ page }) => {
  await page.goto(`questions/${demoIds.pendingYesNo}`);
  const box = drawer(page).getByRole('textbox', { name: 'Answer' });
  await box.fill('Yes, but only for the 6 seats in March');
  await expect(drawer(page).getByTestId('draft-status')).toContainText('Draft saved');
  await page.reload();
  await expect(box).toHaveValue('Yes, but only for the 6 seats in March');
  await drawer(page).getByRole('button', { name: 'Close question' }).click();
  await expect(row(page, demoIds.pendingYesNo).getByText('Draft')).toBeVisible();
});

test('another reviewer answers while I type: I am told, and my draft stays', async ({
  page,
  mock,
}) => {
  await page.goto(`questions/${demoIds.pendingYesNo}`);
  const box = drawer(page).getByRole('textbox', { name: 'Answer' });
  await box.fill('No, the contract says 48');
  await mock.asOtherReviewer(demoIds.pendingYesNo, 'resolve', { answer: 'Yes, credit 6 seats' });
  // The next refresh (the poll, or "r" from anywhere outside a text field) shows the change.
  await drawer(page).getByRole('button', { name: 'Close question' }).focus();
  await page.keyboard.press('r');
  await expect(
    drawer(page).getByText('Answered by someone else: “Yes, credit 6 seats”'),
  ).toBeVisible();
  await expect(box).toHaveValue('No, the contract says 48');
  // The reviewer decides theirs is right and replaces it on purpose.
  await drawer(page).getByRole('button', { name: 'Edit answer' }).click();
  await expect(page.getByText('Answer changed')).toBeVisible();
  expect((await mock.find(demoIds.pendingYesNo))?.result).toEqual({
    answer: 'No, the contract says 48',
  });
});

test('a conflict on submit (409) explains what the question now is and keeps the draft', async ({
  page,
  mock,
}) => {
  await page.goto(`questions/${demoIds.pendingYesNo}`);
  await drawer(page).getByRole('textbox', { name: 'Answer' }).fill('Yes');
  // The other reviewer's cancel lands while this answer is on its way. Cancelling before the
  // click instead raced the page: a refresh in between (the poll, a focus) showed the question
  // cancelled, and there was no Answer button left to press (a fresh-clone CI run met that).
  await page.route(`**/api/pending_tool_calls/${demoIds.pendingYesNo}/resolve`, async (route) => {
    await mock.asOtherReviewer(demoIds.pendingYesNo, 'cancel');
    await route.continue();
  });
  await drawer(page).getByRole('button', answerButton).click();
  const alert = drawer(page).getByRole('alert');
  await expect(alert).toContainText('Someone else got there first');
  await expect(alert).toContainText('Pending tool call is cancelled');
  await expect(drawer(page).getByText('Someone else cancelled this question.')).toBeVisible();
  await expect(drawer(page).getByRole('textbox', { name: 'Answer' })).toHaveValue('Yes');
});

test('the question expires while I type: it says so and keeps my text', async ({ page, mock }) => {
  // Time enough to open it and type on a loaded machine (at 6 s, a CI run once found it expired
  // before the box could be filled); the countdown then runs out while the text is there.
  const asked = await mock.ask({
    question: 'E2E: which rollout ring first?',
    expires_in_seconds: 20,
  });
  await page.goto(`questions/${asked.id}`);
  const box = drawer(page).getByRole('textbox', { name: 'Answer' });
  await box.fill('Ring 0, the internal tenants');
  // The countdown runs out in the page ("has expired"), or a refresh brings the system's own
  // "expired" first ("expired before it was answered"): which comes first is the machine's timing.
  await expect(
    drawer(page)
      .getByText(/This question (has expired|expired before it was answered)/)
      .first(),
  ).toBeVisible({ timeout: 25_000 });
  await expect(box).toHaveValue('Ring 0, the internal tenants');
  await expect(box).toHaveAttribute('readonly', '');
  await expect(drawer(page).getByRole('button', { name: 'Copy text' })).toBeVisible();
  await expect(drawer(page).getByRole('button', answerButton)).toHaveCount(0);
});

test('offline and back: a banner, nothing sent twice, nothing dropped', async ({
  page,
  context,
  mock,
}) => {
  const resolves: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/resolve'))
      resolves.push(request.url());
  });
  await page.goto(`questions/${demoIds.pendingYesNo}`);
  await expect(drawer(page).getByRole('textbox', { name: 'Answer' })).toBeVisible();
  await context.setOffline(true);
  await expect(page.getByText('You are offline')).toBeVisible();
  await drawer(page).getByRole('textbox', { name: 'Answer' }).fill('Yes, sent after the outage');
  await drawer(page).getByRole('button', answerButton).click();
  await expect(drawer(page).getByRole('alert')).toContainText(
    'Not sent: the server could not be reached',
  );
  expect((await mock.find(demoIds.pendingYesNo))?.status).toBe('pending');
  // Back online, the portal refreshes what it shows: wait for that, then check that nothing
  // else went out on its own.
  const refreshed = page.waitForResponse(
    (response) =>
      response.request().method() === 'GET' && response.url().includes('pending_tool_calls'),
  );
  await context.setOffline(false);
  await expect(page.getByText('You are offline')).toHaveCount(0);
  await refreshed;
  expect((await mock.find(demoIds.pendingYesNo))?.status).toBe('pending');
  await drawer(page).getByRole('button', answerButton).click();
  await expect(page.getByText('Answer sent')).toBeVisible();
  expect((await mock.find(demoIds.pendingYesNo))?.result).toEqual({
    answer: 'Yes, sent after the outage',
  });
  expect(resolves.length).toBeLessThanOrEqual(2);
});

test('hostile question text renders as text: no script runs, no dialog opens', async ({
  page,
  mock,
}) => {
  const dialogs: string[] = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  await page.addInitScript(() => {
    (window as unknown as { __pwned: number }).__pwned = 0;
  });
  const payload =
    '<img src=x onerror="window.__pwned=1;alert(1)"> <script>window.__pwned=2;alert(2)</script> <a href="javascript:alert(3)">click</a> \u202Eevil\u202C';
  const hostile = await mock.ask({
    question: payload,
    tags: ['<b>tag</b>'],
    user_id: '<svg onload=alert(4)>',
  });
  await page.goto(`questions?q=${encodeURIComponent('<img')}`);
  await expect(row(page, hostile.id)).toContainText('<img src=x onerror=');
  await page.goto(`questions/${hostile.id}`);
  await expect(drawer(page).getByTestId('question-text')).toContainText(
    '<script>window.__pwned=2;alert(2)</script>',
  );
  await expect(drawer(page).getByText('<svg onload=alert(4)>')).toBeVisible();
  expect(await page.locator('img[src="x"], a[href^="javascript:"]').count()).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned: number }).__pwned)).toBe(0);
  expect(dialogs).toEqual([]);
});

test('a 1 MB unbroken question: the row stays two lines high, the drawer shows a slice and a way to see all', async ({
  page,
  mock,
}) => {
  // Every list response carries the 1 MB text: three times the usual work on a loaded machine (31.8 s in one CI run).
  test.slow();
  const big = await mock.ask({ question: 'A'.repeat(1_048_576), tags: ['huge'] });
  await page.goto('questions?tag=huge');
  const bigRow = row(page, big.id);
  await expect(bigRow).toBeVisible();
  expect((await bigRow.boundingBox())?.height ?? 0).toBeLessThan(200);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await bigRow.getByRole('link').click();
  await expect(
    drawer(page).getByRole('button', { name: /Show the whole text \(1\.0 MB\)/ }),
  ).toBeVisible();
});

test('hostile and absurd URL parameters fall back to defaults', async ({ page }) => {
  await page.goto(
    `questions?status=${encodeURIComponent('"><script>alert(1)</script>')}&sort=%00&q=${'x'.repeat(3000)}`,
  );
  await expect(page.getByRole('radio', { name: /^Pending/ })).toBeChecked();
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('x'.repeat(200));
  await page.goto(`questions/${encodeURIComponent('../../etc/passwd')}`);
  await expect(drawer(page).getByText('Question not found')).toBeVisible();
});
