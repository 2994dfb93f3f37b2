import type { Route } from '@playwright/test';
import { bilbyDemoIds } from '../mock/bilby/seed';
import { demoIds } from '../mock/seed';
import { vertesiaDemoIds } from '../mock/vertesia/seed';
import {
  drawer,
  expect,
  expectAppRunning,
  expectListComplete,
  expectNoA11yViolations,
  row,
  test,
} from './fixtures';

/** Issue 41's reviewer-facing polish: what the page says, and when. */

test('an action while the server is down never makes the list look fresh: only a read does', async ({
  page,
}) => {
  test.slow();
  await page.clock.install();
  await page.goto('questions');
  await expectListComplete(page);
  await expectAppRunning(page);
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

test('an answer outside the question’s choices is asked about before it goes; a choice goes at once', async ({
  page,
  mock,
}) => {
  const id = demoIds.pendingSoonest;
  await page.goto(`questions/${id}`);
  const question = drawer(page);
  const choices = question.getByRole('group', { name: 'Answer choices' });
  await expect(choices.getByRole('button')).toHaveText(['staging', 'production', 'both']);
  const box = question.getByRole('textbox', { name: 'Answer' });
  await box.fill('yes');
  await question.getByRole('button', { name: 'Answer', exact: true }).click();
  const ask = question.getByRole('alertdialog', {
    name: 'Send an answer that is none of the choices?',
  });
  await expect(ask).toContainText(
    '“yes” is none of the answers this question asks for (staging, production, both): the agent may not understand it.',
  );
  await expect(ask).toBeFocused();
  await expectNoA11yViolations(page, '[role="dialog"]');
  await ask.getByRole('button', { name: 'Keep editing' }).click();
  await expect(ask).toBeHidden();
  await expect(box).toBeFocused();
  expect((await mock.find(id))?.status).toBe('pending');

  // A choice (any case) goes without a word.
  await choices.getByRole('button', { name: 'production' }).click();
  await expect(box).toHaveValue('production');
  await question.getByRole('button', { name: 'Answer', exact: true }).click();
  await expect(page.getByText('Answer sent')).toBeVisible();
  await expect(ask).toHaveCount(0);
  expect((await mock.find(id))?.result).toEqual({ answer: 'production' });
});

test('an answer outside the choices goes anyway when the reviewer says so', async ({
  page,
  mock,
}) => {
  const id = demoIds.pendingYesNo;
  await page.goto(`questions/${id}`);
  await drawer(page).getByRole('textbox', { name: 'Answer' }).fill('Only for March');
  await page.keyboard.press('Control+Enter');
  const ask = drawer(page).getByRole('alertdialog', {
    name: 'Send an answer that is none of the choices?',
  });
  await ask.getByRole('button', { name: 'Send anyway' }).click();
  await expect(page.getByText('Answer sent')).toBeVisible();
  expect((await mock.find(id))?.result).toEqual({ answer: 'Only for March' });
});

test('the Tag picker lists tags only; an agent or a conversation is named on its row, and found by search', async ({
  page,
  request,
  mock,
}) => {
  for (const system of ['vertesia', 'bilby'] as const) {
    const reset = await request.post(`${system}/__mock/reset`, {
      headers: { 'x-mock-tenant': mock.tenant, connection: 'close' },
      data: { seed: 'demo' },
    });
    expect(reset.ok()).toBe(true);
  }
  await page.goto('questions');
  const contract = `vertesia:${vertesiaDemoIds.contract}`;
  const database = `bilby:${bilbyDemoIds.database}:${bilbyDemoIds.databaseCall}`;
  // Each system's rows come as it answers (Bilby reads its conversations after its list).
  const answered = { timeout: 20_000 };
  await expect(row(page, contract)).toContainText('Contract reviewer', answered);
  await expect(row(page, database)).toContainText('Analytics database setup', answered);
  const tags = page.getByRole('combobox', { name: 'Tag' }).getByRole('option');
  await expect(tags).toHaveText([
    'Any tag',
    'billing',
    'data',
    'infra',
    'legal',
    'onboarding',
    'security',
  ]);
  await page.getByRole('searchbox', { name: 'Search' }).fill('contract reviewer');
  await expect(row(page, contract)).toBeVisible();
  await expect(page.locator('[data-question-id]')).toHaveCount(1);
});

test('compact rows start their text at one x: urgent (bold) countdowns and a tool’s name do not push it', async ({
  page,
  request,
  mock,
}) => {
  for (const system of ['vertesia', 'bilby'] as const) {
    await request.post(`${system}/__mock/reset`, {
      headers: { 'x-mock-tenant': mock.tenant, connection: 'close' },
      data: { seed: 'demo' },
    });
  }
  // The demo's soonest question is urgent (its countdown bold) and another tool's call has its name.
  await mock.ask({ question: 'E2E: urgent?', expires_in_seconds: 120 });
  await page.addInitScript(() => localStorage.setItem('qi:density', 'compact'));
  await page.goto('questions');
  await expectListComplete(page);
  await expect(page.locator('[data-urgency="danger"]').first()).toBeVisible();
  await expect(row(page, demoIds.nonAskHumanPending)).toContainText('approve_deployment');
  const starts = await page
    .locator('[data-question-id] [data-row-link] > span')
    .evaluateAll((texts) => texts.map((text) => Math.round(text.getBoundingClientRect().left)));
  expect(starts.length).toBeGreaterThan(10);
  expect(new Set(starts)).toEqual(new Set([starts[0]]));
});
