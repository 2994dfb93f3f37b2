import {
  drawer,
  expect,
  expectNoA11yViolations,
  type MockControl,
  row,
  snapshot,
  test,
} from './fixtures';

const TEXT = 'Can the staging database be wiped tonight?';
const MINUTES_6 = 6 * 60_000;

/**
 * Asks the same question `count` times. The mock (like Reflexio) hands back the pending call
 * for an ask within 5 minutes of the last one, so its clock moves 6 minutes between asks.
 */
async function askAgain(
  mock: MockControl,
  count: number,
  extra: Record<string, unknown> = {},
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    if (i > 0) await mock.call('POST', 'clock', { advanceMs: MINUTES_6 });
    const { id } = await mock.ask({ question: TEXT, answer_format: 'yes/no', ...extra });
    ids.push(id);
  }
  return ids;
}

const groupRow = (page: import('@playwright/test').Page) =>
  page.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Show 3 asks' }) });

test('three look-alikes are one row "3 asks"; one answer resolves every one of them', async ({
  page,
  mock,
}) => {
  test.slow();
  await mock.reset('empty');
  const ids = await askAgain(mock, 3);
  const { id: other } = await mock.ask({ question: 'Rotate the API key?' });
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('questions');

  const list = page.getByRole('list', { name: 'Questions' });
  await expect(row(page, other)).toBeVisible();
  // Two rows: the group and the other question.
  await expect(list.locator(':scope > li')).toHaveCount(2);
  const group = row(page, ids[0] as string);
  await expect(group).toContainText('3 asks');
  await expect(group.getByRole('link', { name: TEXT })).toHaveAccessibleDescription(/3 asks/);

  const expand = page.getByRole('button', { name: 'Show 3 asks' });
  await expect(expand).toHaveAttribute('aria-expanded', 'false');
  await expand.click();
  await expect(expand).toHaveAttribute('aria-expanded', 'true');
  const members = page.getByRole('list', { name: `3 asks: ${TEXT}` });
  await expect(members.getByRole('listitem')).toHaveCount(3);
  await expect(members.getByRole('link', { name: 'Ask 3 of 3' })).toBeVisible();
  await snapshot(page, 'lookalikes-list-light');

  await group.getByRole('link', { name: TEXT }).click();
  const panel = drawer(page);
  await expect(page).toHaveURL(new RegExp(`/questions/${ids[0]}\\?asks=all$`));
  // The question once, with its asks.
  await expect(panel.getByTestId('question-text')).toHaveText(TEXT);
  const asks = panel.getByRole('list', { name: '3 asks' });
  await expect(asks.getByRole('listitem')).toHaveCount(3);
  await panel.getByRole('switch', { name: 'Go to the next question after each answer' }).uncheck();
  await panel.getByRole('textbox', { name: 'Answer' }).fill('No, keep it until Friday');
  await panel.getByRole('button', { name: 'Answer', exact: true }).click();

  await expect(panel.getByRole('status').filter({ hasText: 'Answered 3 of 3.' })).toBeVisible();
  const calls = new Map((await mock.calls()).map((call) => [call.id, call]));
  // Each ask got the answer. As Reflexio does with any repeated answer, the newest one stays the
  // answer and each earlier one is marked superseded by the next.
  const last = ids[2] as string;
  for (const id of ids) {
    expect(calls.get(id)?.result).toEqual({ answer: 'No, keep it until Friday' });
    expect(calls.get(id)?.resolved_at).not.toBeNull();
  }
  expect(calls.get(last)?.status).toBe('resolved');
  for (const id of ids.slice(0, 2)) {
    expect(calls.get(id)?.status).toBe('superseded');
    expect(ids).toContain(calls.get(id)?.superseded_by);
  }
  expect(calls.get(other)?.status).toBe('pending');
  // And the drawer says what became of each.
  await expect(asks.getByText('Superseded')).toHaveCount(2);
  await expect(asks.getByText('Resolved')).toHaveCount(1);
});

test('one ask refused: "Answered 2 of 3", why it failed, and it stays selected', async ({
  page,
  mock,
}) => {
  test.slow();
  await mock.reset('empty');
  const ids = await askAgain(mock, 3);
  const refused = ids[1] as string;
  // The server refuses the second ask's answer once, as when someone else closed it.
  await mock.fault({
    kind: 'status',
    status: 409,
    detail: 'Pending tool call is cancelled',
    match: { method: 'POST', path: `${refused}/resolve` },
  });
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(`questions/${ids[0]}?asks=all`);
  const panel = drawer(page);
  await expect(panel.getByRole('list', { name: '3 asks' }).getByRole('listitem')).toHaveCount(3);
  await panel.getByRole('textbox', { name: 'Answer' }).fill('No, not tonight');
  await panel.getByRole('button', { name: 'Answer', exact: true }).click();

  const result = panel.getByRole('status').filter({ hasText: 'Answered 2 of 3.' });
  await expect(result).toBeVisible({ timeout: 15_000 });
  await expect(result.getByTestId('bulk-failures')).toContainText('Pending tool call is cancelled');
  // A failure keeps the reviewer on the group: nothing moved on, nothing was sent again.
  await expect(page).toHaveURL(new RegExp(`/questions/${ids[0]}\\?asks=all$`));
  const calls = new Map((await mock.calls()).map((call) => [call.id, call]));
  expect(calls.get(refused)?.status).toBe('pending');
  for (const id of [ids[0], ids[2]] as string[])
    expect(calls.get(id)?.result).toEqual({ answer: 'No, not tonight' });

  // The failed ask stays selected in the list.
  await panel.getByRole('button', { name: 'Close question' }).click();
  await expect(page.getByRole('toolbar', { name: 'Selected questions' })).toContainText(
    '1 selected',
  );
  await expect(row(page, refused).getByRole('checkbox', { name: `Select: ${TEXT}` })).toBeChecked();
});

test('not applicable on a group: one confirmation naming 3, then 3 of 3', async ({
  page,
  mock,
}) => {
  test.slow();
  await mock.reset('empty');
  const ids = await askAgain(mock, 3);
  // Another question keeps the view (and the selection bar) on screen after the group is done.
  await mock.ask({ question: 'Rotate the API key?', expires_in_seconds: 48 * 3600 });
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('questions');
  // `x` on the group's row ticks its three asks.
  await expect(groupRow(page)).toBeVisible();
  await page.keyboard.press('j');
  await expect(groupRow(page).getByRole('link', { name: TEXT })).toBeFocused();
  await page.keyboard.press('x');
  const bar = page.getByRole('toolbar', { name: 'Selected questions' });
  await expect(bar).toContainText('3 selected');
  await expect(page.getByRole('checkbox', { name: `Select 3 asks: ${TEXT}` })).toBeChecked();
  await groupRow(page).getByRole('link', { name: TEXT }).click();
  const panel = drawer(page);
  await expect(panel.getByRole('list', { name: '3 asks' }).getByRole('listitem')).toHaveCount(3);
  await panel.getByRole('button', { name: 'Not applicable' }).click();

  const dialog = page.getByRole('dialog', { name: 'Mark 3 questions not applicable?' });
  await expect(dialog.getByRole('button', { name: 'Keep them' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Mark not applicable (3)' }).click();
  await expect(dialog.getByText('Marked 3 of 3 not applicable.')).toBeVisible({ timeout: 15_000 });
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();

  const calls = new Map((await mock.calls()).map((call) => [call.id, call]));
  for (const id of ids) expect(calls.get(id)?.result).toMatchObject({ not_applicable: true });
  // None failed: none stays selected.
  await expect(bar).toContainText('Select all 1 in this view');
});

test('the same words for two scopes are two rows, never one group', async ({ page, mock }) => {
  await mock.reset('empty');
  const [forAlice] = await askAgain(mock, 1, {
    scope: { org_id: 'org_demo', user_id: 'alice' },
    user_id: 'alice@example.com',
  });
  await mock.call('POST', 'clock', { advanceMs: MINUTES_6 });
  const [forBob] = await askAgain(mock, 1, {
    scope: { org_id: 'org_demo', user_id: 'bob' },
    user_id: 'bob@example.com',
  });
  const calls = new Map((await mock.calls()).map((call) => [call.id, call]));
  expect(calls.get(forAlice as string)?.dedup_key).toBe(calls.get(forBob as string)?.dedup_key);
  expect(calls.get(forAlice as string)?.scope_hash).not.toBe(
    calls.get(forBob as string)?.scope_hash,
  );

  await page.goto('questions');
  await expect(row(page, forAlice as string)).toBeVisible();
  await expect(row(page, forBob as string)).toBeVisible();
  await expect(page.getByRole('list', { name: 'Questions' }).locator(':scope > li')).toHaveCount(2);
  await expect(page.getByRole('button', { name: /Show \d+ asks/ })).toHaveCount(0);
  await expect(page.getByText(/\d+ asks/)).toHaveCount(0);
});

test('Answered before: Use this answer fills the box, and sending it works', async ({
  page,
  mock,
}) => {
  test.slow();
  await mock.reset('empty');
  const [earlier] = await askAgain(mock, 1);
  await mock.asOtherReviewer(earlier as string, 'resolve', {
    answer: 'Yes, after the 18:00 backup',
  });
  await mock.call('POST', 'clock', { advanceMs: MINUTES_6 });
  const [again] = await askAgain(mock, 1);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(`questions/${again}`);

  const panel = drawer(page);
  const before = panel.getByRole('region', { name: 'Answered before' });
  await expect(before).toContainText('Yes, after the 18:00 backup');
  await expect(before).toContainText(/answered \d+ minutes? ago/);
  const box = panel.getByRole('textbox', { name: 'Answer' });
  await expect(box).toHaveValue('');
  await before.getByRole('button', { name: 'Use this answer' }).click();
  await expect(box).toHaveValue('Yes, after the 18:00 backup');
  await expect(box).toBeFocused();
  await page.keyboard.press('Control+Enter');
  await expect(page.getByText('Answer sent')).toBeVisible();
  await expect
    .poll(async () => (await mock.find(again as string))?.result)
    .toEqual({ answer: 'Yes, after the 18:00 backup' });
});

for (const scheme of ['light', 'dark'] as const) {
  test(`look-alikes and Answered before pass axe in the ${scheme} theme`, async ({
    page,
    mock,
  }) => {
    test.slow();
    await mock.reset('empty');
    const [earlier] = await askAgain(mock, 1);
    await mock.asOtherReviewer(earlier as string, 'resolve', { answer: 'Yes' });
    await mock.call('POST', 'clock', { advanceMs: MINUTES_6 });
    const ids = await askAgain(mock, 3);
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await page.goto('questions');
    await page.getByRole('button', { name: 'Show 3 asks' }).click();
    await expect(page.getByRole('link', { name: 'Ask 3 of 3' })).toBeVisible();
    await expectNoA11yViolations(page);
    await snapshot(page, `lookalikes-list-${scheme}`);

    await row(page, ids[0] as string)
      .getByRole('link', { name: TEXT })
      .click();
    const panel = drawer(page);
    await expect(panel.getByRole('region', { name: 'Answered before' })).toBeVisible();
    await expect(panel.getByRole('list', { name: '3 asks' }).getByRole('listitem')).toHaveCount(3);
    await expectNoA11yViolations(page, '[role="dialog"]');
    await snapshot(page, `lookalikes-drawer-${scheme}`);
  });
}

test('answer and next, and j, step onto a group and open all of its asks', async ({
  page,
  mock,
}) => {
  test.slow();
  await mock.reset('empty');
  // Soonest expiry first: the single question, then the group.
  const { id: single } = await mock.ask({
    question: 'Rotate the API key?',
    expires_in_seconds: 24 * 3600,
  });
  const ids = await askAgain(mock, 3, { expires_in_seconds: 48 * 3600 });
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(`questions/${single}`);
  const panel = drawer(page);
  await expect(panel.getByTestId('question-text')).toHaveText('Rotate the API key?');
  await expect(groupRow(page)).toHaveCount(1);
  // `j` from the single question opens the next row: the whole group.
  await page.keyboard.press('j');
  await expect(page).toHaveURL(new RegExp(`/questions/${ids[0]}\\?asks=all$`));
  await expect(panel.getByRole('list', { name: '3 asks' }).getByRole('listitem')).toHaveCount(3);
  await page.keyboard.press('k');
  await expect(page).toHaveURL(new RegExp(`/questions/${single}$`));

  // Answering the single question moves on to the group, whole.
  await panel.getByRole('textbox', { name: 'Answer' }).fill('Yes, today');
  await page.keyboard.press('Control+Enter');
  await expect(page).toHaveURL(new RegExp(`/questions/${ids[0]}\\?asks=all$`));
  await expect(panel.getByRole('list', { name: '3 asks' }).getByRole('listitem')).toHaveCount(3);
  await expect(panel.getByRole('textbox', { name: 'Answer' })).toBeFocused();
});
