import type { Page, Request } from '@playwright/test';
import { demoIds } from '../mock/seed';
import { drawer, expect, expectNoA11yViolations, row, test } from './fixtures';

/**
 * What cannot be changed once sent waits a few seconds with Undo (issue 41): undone, nothing
 * reaches the system and the answer is back in its box; not undone, it goes once, also across a
 * reload within the window. A window of 30 s here (a click always lands within it), and the
 * page's clock moved on past it (never a wait).
 */
test.use({ undoSeconds: 30 });

test.beforeEach(async ({ page }) => {
  // These journeys look at the question after acting on it: "answer and next" off.
  await page.addInitScript(() => localStorage.setItem('qi:answer-and-next', 'off'));
});

/** The actions the page sends to the Reflexio API (answers, cancels), as they leave it. */
function sentActions(page: Page): string[] {
  const sent: string[] = [];
  page.on('request', (request: Request) => {
    if (request.method() === 'POST' && /\/api\/pending_tool_calls\/[^/]+\/\w+/.test(request.url()))
      sent.push(new URL(request.url()).pathname.replace(/.*\/pending_tool_calls\//, ''));
  });
  return sent;
}

test('a JSON result: Undo within the window sends nothing; sent after it, it goes once', async ({
  page,
  mock,
}) => {
  // A call of its own: the trail (shared by the journeys) has nothing else on it.
  const { id } = await mock.ask({
    question: 'E2E: release 9.4 to production?',
    tool_name: 'approve_release',
    args: { version: '9.4' },
    expires_in_seconds: 3600,
  });
  const trail = async () => {
    const response = await page.request.get(`portal-api/activity?question=${id}`);
    return ((await response.json()) as { entries: { action: string }[] }).entries.map(
      (entry) => entry.action,
    );
  };
  const sent = sentActions(page);
  await page.clock.install();
  await page.goto(`questions/${id}`);
  const question = drawer(page);
  const box = question.getByRole('textbox', { name: 'Result (JSON)' });
  const resolve = async () => {
    await question.getByRole('button', { name: 'Resolve' }).click();
    await page
      .getByRole('dialog', { name: 'Send this result?' })
      .getByRole('button', { name: 'Send result' })
      .click();
  };
  await box.fill('{"approved": true}');
  await resolve();
  const note = question.getByTestId('held-note');
  await expect(note).toContainText('Sent · goes to the agent in');
  const toast = page.getByRole('alert').filter({ hasText: 'Sent' });
  await expect(toast.getByRole('button', { name: 'Undo' })).toBeVisible();
  // Shown as it will be: no longer among the pending rows.
  await expect(row(page, id)).toHaveCount(0);

  await note.getByRole('button', { name: 'Undo' }).click();
  await expect(note).toHaveCount(0);
  await expect(toast).toHaveCount(0);
  await expect(box).toHaveValue('{"approved": true}');
  await expect(row(page, id)).toBeVisible();
  expect(sent).toEqual([]);
  expect(await trail()).toEqual([]);
  expect((await mock.find(id))?.status).toBe('pending');

  // Again, and left alone: it goes when the window is over, once.
  await resolve();
  await expect(note).toBeVisible();
  expect(sent).toEqual([]);
  // Past this window (and the undone one's, had it been left running): two minutes.
  await page.clock.fastForward('02:00');
  await expect(page.getByRole('alert').filter({ hasText: 'Answer sent' })).toBeVisible();
  await expect(note).toHaveCount(0);
  expect(sent).toEqual([`${id}/resolve`]);
  expect((await mock.find(id))?.result).toEqual({ approved: true });
  // The server records what passes through it: the result, once; the undone one never.
  expect(await trail()).toEqual(['resolve-json']);
});

test('a cancel is kept across a reload within the window, and sent once after it', async ({
  page,
  mock,
}) => {
  const id = demoIds.pendingYesNo;
  const sent = sentActions(page);
  await page.clock.install();
  await page.goto(`questions/${id}`);
  await drawer(page).getByRole('button', { name: 'Cancel question' }).click();
  await page
    .getByRole('dialog', { name: 'Cancel this question?' })
    .getByRole('button', { name: 'Cancel question' })
    .click();
  await expect(drawer(page).getByTestId('held-note')).toContainText('Question cancelled');

  await page.reload();
  // After the reload it is still waiting, and can still be undone.
  const note = drawer(page).getByTestId('held-note');
  await expect(note).toContainText('Question cancelled · goes to the agent in');
  await expect(
    page.getByRole('alert').filter({ hasText: 'Question cancelled' }).getByRole('button', {
      name: 'Undo',
    }),
  ).toBeVisible();
  expect(sent).toEqual([]);
  // The page's clock starts again from where it was installed after a reload: two minutes is past
  // the window wherever it stands.
  await page.clock.fastForward('02:00');
  await expect(note).toHaveCount(0);
  await expect(drawer(page).getByText('This question was cancelled')).toBeVisible();
  expect(sent).toEqual([`${id}/cancel`]);
  expect((await mock.find(id))?.status).toBe('cancelled');
});

for (const scheme of ['light', 'dark'] as const) {
  test(`the waiting note, its Undo, and the ask before an answer that is none of the choices pass axe in the ${scheme} theme`, async ({
    page,
    mock,
  }) => {
    // Two scans of the page.
    test.slow();
    const { id } = await mock.ask({
      question: 'E2E: roll the canary forward?',
      tool_name: 'approve_canary',
      expires_in_seconds: 3600,
    });
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await page.goto(`questions/${id}`);
    const question = drawer(page);
    await question.getByRole('textbox', { name: 'Result (JSON)' }).fill('{"go": true}');
    await question.getByRole('button', { name: 'Resolve' }).click();
    await page
      .getByRole('dialog', { name: 'Send this result?' })
      .getByRole('button', { name: 'Send result' })
      .click();
    await expect(question.getByTestId('held-note')).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'Sent' })).toBeVisible();
    await expectNoA11yViolations(page);
    await question.getByTestId('held-note').getByRole('button', { name: 'Undo' }).click();
    await expect(question.getByTestId('held-note')).toHaveCount(0);

    await page.goto(`questions/${demoIds.pendingSoonest}`);
    await drawer(page).getByRole('textbox', { name: 'Answer' }).fill('yes');
    await drawer(page).getByRole('button', { name: 'Answer', exact: true }).click();
    await expect(
      drawer(page).getByRole('alertdialog', {
        name: 'Send an answer that is none of the choices?',
      }),
    ).toBeVisible();
    await expectNoA11yViolations(page, '[role="dialog"]');
  });
}
