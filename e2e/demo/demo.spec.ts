import type { Page } from '@playwright/test';
import { demoIds } from '../../mock/seed';
import { expectNoA11yViolations } from '../fixtures';
import { demoCall, drawer, expect, row, test } from './fixtures';

const answerButton = { name: 'Answer', exact: true } as const;
// A first visit installs the Service Worker (it caches the whole app) before the portal starts.
const firstVisit = { timeout: 30_000 };

test('the first visit starts the demo under its sub-path, with its banner', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto('./');
  await expect(row(page, demoIds.pendingYesNo)).toBeVisible(firstVisit);
  await expect(page).toHaveURL(/\/qi-demo\/#\/questions$/);
  const banner = page.getByRole('region', { name: 'Demo' });
  await expect(banner).toContainText('Demo with made-up data');
  await expect(banner).toContainText('Sam, a pretend colleague');
  await expect(banner.getByRole('button', { name: 'Reset demo' })).toBeVisible();
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(
    /\/qi-demo\/sw\.js$/,
  );
  await expectNoA11yViolations(page);
  expect(errors).toEqual([]);
});

test('answer a question; the answer outlives the Service Worker', async ({ page, context }) => {
  await page.goto('./');
  await row(page, demoIds.pendingYesNo).getByRole('link').click(firstVisit);
  const question = drawer(page);
  await question.getByRole('button', { name: 'Yes' }).click();
  await question.getByRole('textbox', { name: 'Answer' }).fill('Yes, issue the credit note');
  await question.getByRole('button', answerButton).click();
  await expect(page.getByText('Answer sent')).toBeVisible();
  await expect(row(page, demoIds.pendingYesNo)).toHaveCount(0);

  // The browser stops an idle worker whenever it likes; the next one starts from IndexedDB.
  const cdp = await context.newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await page.goto('questions?status=resolved');
  await expect(row(page, demoIds.pendingYesNo)).toContainText('Yes, issue the credit note');
  expect(await demoCall(page, demoIds.pendingYesNo)).toMatchObject({
    status: 'resolved',
    result: { answer: 'Yes, issue the credit note' },
  });
});

test('edit an earlier answer', async ({ page }) => {
  await page.goto('questions?status=resolved');
  await row(page, demoIds.resolved).getByRole('link').click(firstVisit);
  const question = drawer(page);
  const box = question.getByRole('textbox', { name: 'Answer' });
  await expect(box).toHaveValue(/Replica lag is still 40 s/);
  await box.fill('Yes: replica lag is under 1 s now, go ahead.');
  await question.getByRole('button', { name: 'Edit answer' }).click();
  await expect(page.getByText('Answer changed')).toBeVisible();
  expect((await demoCall(page, demoIds.resolved))?.result).toEqual({
    answer: 'Yes: replica lag is under 1 s now, go ahead.',
  });
});

test('a link into the app opens on a first visit (404.html), then mark not applicable', async ({
  page,
}) => {
  await page.goto(`questions/${demoIds.pendingYesNo}`);
  const question = drawer(page);
  await question.getByRole('button', { name: 'Not applicable' }).click(firstVisit);
  await expect(page).toHaveURL(new RegExp(`/qi-demo/#/questions/${demoIds.pendingYesNo}$`));
  const confirm = page.getByRole('dialog', { name: 'Mark this question not applicable?' });
  await confirm.getByRole('button', { name: 'Mark not applicable' }).click();
  // The toast's title (History says "Marked not applicable by …" too, now the demo keeps a trail).
  await expect(page.getByText('Marked not applicable', { exact: true })).toBeVisible();
  // Answer and next (on by default) then opens the next pending question.
  await expect(page).not.toHaveURL(new RegExp(`/qi-demo/#/questions/${demoIds.pendingYesNo}$`));
  expect((await demoCall(page, demoIds.pendingYesNo))?.result).toEqual({
    answer: 'User does not have information about this question.',
    not_applicable: true,
  });
});

test('cancel a question', async ({ page }) => {
  // This test looks at the drawer after the action: "answer and next" off.
  await page.addInitScript(() => localStorage.setItem('qi:answer-and-next', 'off'));
  await page.goto('./');
  await row(page, demoIds.pendingYesNo).getByRole('link').click(firstVisit);
  await drawer(page).getByRole('button', { name: 'Cancel question' }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancel this question?' });
  await confirm.getByRole('button', { name: 'Cancel question' }).click();
  await expect(page.getByText('Question cancelled', { exact: true })).toBeVisible();
  await expect(drawer(page).getByText('This question was cancelled')).toBeVisible();
  // A cancel waits its few seconds of undo before it is sent.
  await expect
    .poll(async () => (await demoCall(page, demoIds.pendingYesNo))?.status, { timeout: 30_000 })
    .toBe('cancelled');
});

test('a question opened in the app survives a reload (the worker serves the page)', async ({
  page,
}) => {
  await page.goto('./');
  await row(page, demoIds.nonAskHumanPending).getByRole('link').click(firstVisit);
  await expect(page).toHaveURL(new RegExp(`/qi-demo/#/questions/${demoIds.nonAskHumanPending}$`));
  const response = await page.reload();
  expect(response?.fromServiceWorker()).toBe(true);
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(drawer(page).getByRole('textbox', { name: 'Result (JSON)' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Demo' })).toBeVisible();
});

test('with the network off and the site gone, a reload still works', async ({
  page,
  context,
  demoSite,
}) => {
  await page.goto('./');
  await expect(row(page, demoIds.pendingYesNo)).toBeVisible(firstVisit);
  await demoSite.stop();
  await context.setOffline(true);
  await page.reload();
  // The question view is a part loaded lazily: it comes from the worker's cache too.
  await row(page, demoIds.pendingYesNo).getByRole('link').click();
  const question = drawer(page);
  await question.getByRole('textbox', { name: 'Answer' }).fill('Yes, offline');
  await question.getByRole('button', answerButton).click();
  await expect(page.getByText('Answer sent')).toBeVisible();
  expect((await demoCall(page, demoIds.pendingYesNo))?.status).toBe('resolved');
});

/** Opens the demo's yes/no question by its link and cancels it, until the cancel has been sent. */
async function cancelByLink(page: Page) {
  await page.goto(`./questions/${demoIds.pendingYesNo}`);
  await drawer(page).getByRole('button', { name: 'Cancel question' }).click(firstVisit);
  await page
    .getByRole('dialog', { name: 'Cancel this question?' })
    .getByRole('button', { name: 'Cancel question' })
    .click();
  await expect(page.getByText('Question cancelled', { exact: true })).toBeVisible();
  // A cancel waits its few seconds of undo before it is sent.
  await expect
    .poll(async () => (await demoCall(page, demoIds.pendingYesNo))?.status, { timeout: 30_000 })
    .toBe('cancelled');
}

test('Reset demo brings the made-up data back', async ({ page }) => {
  await cancelByLink(page);
  await page.goto('./');
  await expect(row(page, demoIds.pendingYesNo)).toHaveCount(0);

  // Reset reloads the page once the mocks are reset; the old page may show the row first (its
  // poll can come between the reset and the reload), so the journey waits for the reload.
  const reloaded = page.waitForEvent('load');
  await page
    .getByRole('region', { name: 'Demo' })
    .getByRole('button', { name: 'Reset demo' })
    .click();
  await page
    .getByRole('group', { name: 'Reset the demo?' })
    .getByRole('button', { name: 'Erase and reset' })
    .click();
  await reloaded;
  await expect(row(page, demoIds.pendingYesNo)).toBeVisible();
  expect((await demoCall(page, demoIds.pendingYesNo))?.status).toBe('pending');
});

test('Reset demo asks before it erases what the visitor did; Keep my changes keeps them', async ({
  page,
}) => {
  await cancelByLink(page);
  const banner = page.getByRole('region', { name: 'Demo' });
  await banner.getByRole('button', { name: 'Reset demo' }).click();
  const ask = banner.getByRole('group', { name: 'Reset the demo?' });
  await expect(ask).toContainText(
    'Your answers, the trail of who did what, the claims and the team’s snippets are erased',
  );
  await expect(ask.getByRole('button', { name: 'Keep my changes' })).toBeFocused();
  await expectNoA11yViolations(page, '[aria-label="Demo"]');
  await ask.getByRole('button', { name: 'Keep my changes' }).click();
  await expect(ask).toBeHidden();
  await expect(banner.getByRole('button', { name: 'Reset demo' })).toBeFocused();
  expect((await demoCall(page, demoIds.pendingYesNo))?.status).toBe('cancelled');
});

test('a link to a question lower in the list keeps the demo banner and the status tabs in view', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`./#/questions/${demoIds.longText}`);
  await expect(drawer(page).getByRole('button', { name: 'Claim' })).toBeVisible(firstVisit);
  await expect(row(page, demoIds.longText).getByRole('link')).toHaveAttribute(
    'aria-current',
    'true',
  );
  await expect(page.getByRole('region', { name: 'Demo' })).toBeInViewport();
  await expect(page.getByRole('radiogroup', { name: 'Status' })).toBeInViewport();
});

test('the bell’s menu says in one line that “when the inbox is closed” needs the portal server', async ({
  page,
}) => {
  await page.goto('./');
  await expect(row(page, demoIds.pendingYesNo)).toBeVisible(firstVisit);
  await page.getByRole('button', { name: 'Notification options' }).click();
  const menu = page.getByRole('dialog', { name: 'Notification options' });
  await expect(menu).toContainText(
    '“When the inbox is closed” needs the portal server; this deployment has none',
  );
  await expect(menu.getByRole('switch')).toHaveCount(0);
});
