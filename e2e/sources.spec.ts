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
  // The toast (the question's pane and its row say "Marked not applicable by …" too, a moment).
  await expect(
    page.getByRole('alert').filter({ hasText: 'Marked not applicable' }).first(),
  ).toBeVisible();
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

type BilbyState = {
  conversations: {
    id: string;
    answered: {
      toolCallId: string;
      output: { status: string; answers: unknown[]; summary: string };
    }[];
  }[];
};

async function bilbyAnswered(request: APIRequestContext, tenant: string, conversationId: string) {
  const state = (await control(request, tenant, 'bilby', 'GET', 'state')) as BilbyState;
  return state.conversations.find((c) => c.id === conversationId)?.answered ?? [];
}

const twoQuestionsId = `vertesia:${vertesiaDemoIds.twoQuestions}`;
const regionQuestion = 'Which region should the new workspace for Acme Corp live in?';
const ownerQuestion = 'Who should own the workspace: Dana Whitfield or the Acme IT team?';

test('answer a two-question Vertesia ask: one box per question, one readable response', async ({
  page,
  request,
  mock,
}) => {
  await page.goto(`questions/${encodeURIComponent(twoQuestionsId)}`);
  const question = drawer(page);
  await expect(question.getByRole('textbox', { name: regionQuestion })).toBeVisible();
  await expectNoA11yViolations(page, '[role="dialog"]');
  // Both must be answered before anything is sent.
  await question.getByRole('textbox', { name: regionQuestion }).fill('eu-west-1 (Ireland)');
  await question.getByRole('button', { name: 'Answer', exact: true }).click();
  await expect(question.getByText('Answer this question too')).toBeVisible();
  await question.getByRole('textbox', { name: ownerQuestion }).fill('Dana Whitfield');
  await question.getByRole('textbox', { name: ownerQuestion }).press('Control+Enter');
  await expect(page.getByText('Answer sent')).toBeVisible();
  const state = (await control(request, mock.tenant, 'vertesia', 'GET', 'state')) as {
    asks: { askId: string; status: string; response?: string }[];
  };
  expect(state.asks.find((ask) => ask.askId === vertesiaDemoIds.twoQuestions)).toMatchObject({
    status: 'resolved',
    response: `Q: ${regionQuestion}\nA: eu-west-1 (Ireland)\n\nQ: ${ownerQuestion}\nA: Dana Whitfield`,
  });
});

test('a Vertesia conflict: answered elsewhere first, the reviewer is told and keeps the text', async ({
  page,
  request,
  mock,
}) => {
  await page.goto(`questions/${encodeURIComponent(twoQuestionsId)}`);
  const question = drawer(page);
  await question.getByRole('textbox', { name: regionQuestion }).fill('us-east-2');
  await question.getByRole('textbox', { name: ownerQuestion }).fill('The Acme IT team');
  await control(
    request,
    mock.tenant,
    'vertesia',
    'POST',
    `asks/${vertesiaDemoIds.twoQuestions}/resolve`,
    {
      response: 'Answered in the Vertesia chat',
    },
  );
  // Told on sending, or by the refresh that sees it first (the Answer button then goes before it
  // can be clicked): either way in words, text kept.
  const told = question.getByText(/someone else/i).first();
  const send = question
    .getByRole('button', { name: 'Answer', exact: true })
    .click()
    .catch(() => {});
  await Promise.race([send, told.waitFor()]);
  await expect(told).toBeVisible();
  await expect(question.getByRole('textbox', { name: regionQuestion })).toHaveValue('us-east-2');
  await expect(question.getByRole('textbox', { name: ownerQuestion })).toHaveValue(
    'The Acme IT team',
  );
});

test('answer a Bilby call with a single-select and a multi-select question', async ({
  page,
  request,
  mock,
}) => {
  const id = `bilby:${bilbyDemoIds.database}:${bilbyDemoIds.databaseCall}`;
  await page.goto(`questions/${id}`);
  const question = drawer(page);
  await question.getByRole('radio', { name: 'Postgres 17' }).check();
  await question.getByRole('checkbox', { name: 'PostGIS' }).check();
  await question.getByRole('checkbox', { name: 'pgvector' }).check();
  await question
    .getByRole('textbox', { name: 'Or in your own words: Extensions' })
    .fill('pg_partman');
  await expectNoA11yViolations(page, '[role="dialog"]');
  // What is chosen is a draft like typed text: it survives a reload.
  await page.reload();
  await expect(drawer(page).getByRole('radio', { name: 'Postgres 17' })).toBeChecked();
  await expect(drawer(page).getByRole('checkbox', { name: 'pgvector' })).toBeChecked();
  await drawer(page).getByRole('button', { name: 'Answer', exact: true }).click();
  await expect(page.getByText('Answer sent')).toBeVisible();
  expect(await bilbyAnswered(request, mock.tenant, bilbyDemoIds.database)).toEqual([
    expect.objectContaining({
      toolCallId: bilbyDemoIds.databaseCall,
      output: {
        status: 'answered',
        answers: [
          {
            question: 'Which Postgres version should the new analytics database run?',
            selected: ['Postgres 17'],
          },
          {
            question: 'Which extensions should be installed from the start?',
            selected: ['PostGIS', 'pgvector'],
            custom: 'pg_partman',
          },
        ],
        summary: 'Postgres: Postgres 17; Extensions: PostGIS, pgvector, pg_partman',
      },
    }),
  ]);
});

test('a Bilby 409 while the agent is busy: the choice is kept, and Try again sends it', async ({
  page,
  request,
  mock,
}) => {
  const id = `bilby:${bilbyDemoIds.busy}:${bilbyDemoIds.busyCall}`;
  await page.goto(`questions/${id}`);
  const question = drawer(page);
  await expect(question.getByTestId('agent-busy-note')).toBeVisible();
  await question.getByRole('radio', { name: 'Last year' }).check();
  await question.getByRole('button', { name: 'Answer', exact: true }).click();
  const alert = question.getByRole('alert');
  await expect(alert).toContainText(
    'The agent is still working on this conversation; try again in a moment',
  );
  await expect(question.getByRole('radio', { name: 'Last year' })).toBeChecked();
  await expectNoA11yViolations(page, '[role="dialog"]');
  expect(await bilbyAnswered(request, mock.tenant, bilbyDemoIds.busy)).toEqual([]);

  // The agent's turn ends; the same choice goes through.
  await control(request, mock.tenant, 'bilby', 'POST', `conversations/${bilbyDemoIds.busy}/busy`, {
    ms: 0,
  });
  await alert.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByText('Answer sent')).toBeVisible();
  expect(await bilbyAnswered(request, mock.tenant, bilbyDemoIds.busy)).toEqual([
    expect.objectContaining({
      toolCallId: bilbyDemoIds.busyCall,
      output: expect.objectContaining({ status: 'answered', summary: 'Baseline: Last year' }),
    }),
  ]);
});

test('a Bilby question answered here stays in the list as answered until the next refresh', async ({
  page,
}) => {
  await page.goto('questions?status=all');
  await row(page, namingId).getByRole('link').click();
  const question = drawer(page);
  await question
    .getByRole('switch', { name: 'Go to the next question after each answer' })
    .uncheck();
  await question.getByRole('radio', { name: 'ledger' }).check();
  await question.getByRole('button', { name: 'Answer', exact: true }).click();
  await expect(page.getByText('Answer sent')).toBeVisible();
  // The current answer, not the History's record of what was sent.
  await expect(question.getByTestId('current-answer')).toContainText('Name: ledger');
  await expect(row(page, namingId)).toContainText('Resolved');
});

test('a Bilby question asked twice in one conversation is answered once, both calls in one request', async ({
  page,
  request,
  mock,
}) => {
  const replica = {
    question: 'Which region should the read replica go to?',
    header: 'Region',
    options: [
      { label: 'eu-west', description: 'Ireland' },
      { label: 'us-east', description: 'Virginia' },
    ],
    multiSelect: false,
  };
  const created = (await control(request, mock.tenant, 'bilby', 'POST', 'conversations', {
    title: 'Replica placement',
    pending: [{ questions: [replica] }, { questions: [replica] }],
  })) as { conversation: { id: string; pendingQuestions: { toolCallId: string }[] } };
  const { id: conversationId, pendingQuestions } = created.conversation;
  await page.goto('questions?q=read+replica');
  const group = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('button', { name: 'Show 2 asks' }) });
  await group.getByRole('link', { name: replica.question }).click();
  const panel = drawer(page);
  await expect(panel.getByText('asked 2 times in the same conversation')).toBeVisible();
  await panel.getByRole('radio', { name: 'eu-west' }).check();
  await panel.getByRole('button', { name: 'Answer', exact: true }).click();
  await expect(panel.getByRole('status').filter({ hasText: 'Answered 2 of 2.' })).toBeVisible();
  // One by one, the second would have been refused while the agent's turn ran (409).
  const answered = await bilbyAnswered(request, mock.tenant, conversationId);
  expect(answered.map((a) => a.toolCallId).sort()).toEqual(
    pendingQuestions.map((p) => p.toolCallId).sort(),
  );
  for (const output of answered) {
    expect(output).toMatchObject({ output: { status: 'answered', summary: 'Region: eu-west' } });
  }
});
