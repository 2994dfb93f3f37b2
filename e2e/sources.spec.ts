// One inbox for Reflexio, Vertesia and Bilby: each journey seeds this test's own tenant of the
// Vertesia and Bilby mocks (they start empty in the e2e server) next to the Reflexio demo data.
import type { APIRequestContext } from '@playwright/test';
import { bilbyDemoIds } from '../mock/bilby/seed';
import { demoIds } from '../mock/seed';
import { vertesiaDemoIds } from '../mock/vertesia/seed';
import { drawer, expect, expectNoA11yViolations, row, test } from './fixtures';

async function control(
  request: APIRequestContext,
  tenant: string,
  system: 'vertesia' | 'bilby',
  method: 'GET' | 'POST',
  path: string,
  data?: unknown,
) {
  const response = await request.fetch(`${system}/__mock/${path}`, {
    method,
    headers: { 'x-mock-tenant': tenant, connection: 'close' },
    data,
  });
  if (!response.ok()) throw new Error(`${system} mock ${path}: ${response.status()}`);
  return response.json();
}

const refundId = `vertesia:${vertesiaDemoIds.refund}`;
const namingId = `bilby:${bilbyDemoIds.naming}:${bilbyDemoIds.namingCall}`;

test.beforeEach(async ({ request, mock }) => {
  for (const system of ['vertesia', 'bilby'] as const) {
    await control(request, mock.tenant, system, 'POST', 'reset', { seed: 'demo' });
  }
});

test('one list across the three systems, each row naming its source', async ({ page }) => {
  await page.goto('questions');
  await expect(row(page, demoIds.pendingYesNo).locator('[data-source="reflexio"]')).toHaveText(
    'Reflexio',
  );
  await expect(row(page, refundId).locator('[data-source="vertesia"]')).toHaveText('Vertesia');
  await expect(row(page, namingId).locator('[data-source="bilby"]')).toHaveText('Bilby');
  await expectNoA11yViolations(page);
});

test('the Source filter narrows the list and is kept across reload', async ({ page }) => {
  await page.goto('questions');
  await expect(row(page, namingId)).toBeVisible();
  await page.getByRole('combobox', { name: 'Source' }).selectOption({ label: 'Vertesia' });
  await expect(page).toHaveURL(/[?&]source=vertesia(&|$)/);
  await expect(row(page, refundId)).toBeVisible();
  await expect(row(page, demoIds.pendingYesNo)).toHaveCount(0);
  await expect(row(page, namingId)).toHaveCount(0);

  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Source' })).toHaveValue('vertesia');
  await expect(row(page, refundId)).toBeVisible();
  await expect(page.locator('[data-source]:not([data-source="vertesia"])')).toHaveCount(0);
});

test('an old Reflexio link /questions/<id> still opens its question', async ({ page }) => {
  await page.goto(`questions/${demoIds.pendingYesNo}`);
  await expect(drawer(page).getByTestId('question-text')).toContainText(
    'ACME Corp disputes invoice',
  );
  await expect(drawer(page).getByText('Reflexio', { exact: true })).toBeVisible();
});

test('a deep link opens a Vertesia ask, offering only an answer and saying why', async ({
  page,
}) => {
  await page.goto(`questions/${encodeURIComponent(refundId)}`);
  await expect(drawer(page).getByTestId('question-text')).toContainText(
    'Customer #4821 asks for a refund',
  );
  await expect(drawer(page).getByText('Vertesia', { exact: true })).toBeVisible();
  await expect(drawer(page).getByTestId('missing-actions')).toHaveText(
    /^Vertesia asks can only be answered/,
  );
  await expect(drawer(page).getByRole('button', { name: 'Not applicable' })).toHaveCount(0);
  await expect(drawer(page).getByRole('button', { name: 'Cancel question' })).toHaveCount(0);
  await expectNoA11yViolations(page, '[role="dialog"]');
});

test('a deep link opens a Bilby question', async ({ page }) => {
  await page.goto(`questions/${namingId}`);
  await expect(drawer(page).getByTestId('question-text')).toContainText(
    'What should the new billing service be called',
  );
  await expect(drawer(page).getByText('Bilby', { exact: true })).toBeVisible();
  await expect(drawer(page).getByRole('button', { name: 'Cancel question' })).toHaveCount(0);
});

test('answer a one-question Vertesia ask', async ({ page, request, mock }) => {
  await page.goto(`questions/${encodeURIComponent(refundId)}`);
  const question = drawer(page);
  await question.getByRole('textbox', { name: 'Answer' }).fill('Approve it, as a goodwill gesture');
  await question.getByRole('button', { name: 'Answer', exact: true }).click();
  await expect(page.getByText('Answer sent')).toBeVisible();
  const state = (await control(request, mock.tenant, 'vertesia', 'GET', 'state')) as {
    asks: { askId: string; status: string; response?: string }[];
  };
  expect(state.asks.find((ask) => ask.askId === vertesiaDemoIds.refund)).toMatchObject({
    status: 'resolved',
    response: 'Approve it, as a goodwill gesture',
  });
});

test('dismiss a Bilby question as not applicable', async ({ page, request, mock }) => {
  await page.goto(`questions/${namingId}`);
  await drawer(page).getByRole('button', { name: 'Not applicable' }).click();
  const confirm = page.getByRole('dialog', { name: 'Mark this question not applicable?' });
  await confirm.getByRole('button', { name: 'Mark not applicable' }).click();
  await expect(page.getByText('Marked not applicable')).toBeVisible();
  const state = (await control(request, mock.tenant, 'bilby', 'GET', 'state')) as {
    conversations: { id: string; answered: { toolCallId: string; output: { status: string } }[] }[];
  };
  const conversation = state.conversations.find((c) => c.id === bilbyDemoIds.naming);
  expect(conversation?.answered).toEqual([
    expect.objectContaining({
      toolCallId: bilbyDemoIds.namingCall,
      output: expect.objectContaining({ status: 'dismissed' }),
    }),
  ]);
});

test('one source down: it is named, and the others keep working', async ({
  page,
  request,
  mock,
}) => {
  await control(request, mock.tenant, 'vertesia', 'POST', 'faults', {
    kind: 'status',
    status: 503,
    count: 1000,
    match: { path: '/pending-asks' },
  });
  await page.goto('questions');
  await expect(page.getByText('Vertesia is unavailable (HTTP 503).')).toBeVisible();
  await expect(row(page, demoIds.pendingYesNo)).toBeVisible();
  await expect(row(page, namingId)).toBeVisible();
  await expect(row(page, refundId)).toHaveCount(0);
  // The others still open.
  await row(page, namingId).getByRole('link').click();
  await expect(drawer(page).getByText('Bilby', { exact: true })).toBeVisible();
});
