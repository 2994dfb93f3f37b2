// The static demo has the same three systems as `npm start`: Reflexio, Vertesia and Bilby, each
// a mock in the page's Service Worker with its state in IndexedDB.
import { bilbyDemoIds } from '../../mock/bilby/seed';
import { demoIds } from '../../mock/seed';
import { vertesiaDemoIds } from '../../mock/vertesia/seed';
import { expectNoA11yViolations } from '../fixtures';
import { demoCall, drawer, expect, row, systemState, test } from './fixtures';

// A first visit installs the Service Worker (it caches the whole app) before the portal starts.
const firstVisit = { timeout: 30_000 };
const answerButton = { name: 'Answer', exact: true } as const;

const twoQuestionsId = `vertesia:${vertesiaDemoIds.twoQuestions}`;
const refundId = `vertesia:${vertesiaDemoIds.refund}`;
const databaseId = `bilby:${bilbyDemoIds.database}:${bilbyDemoIds.databaseCall}`;
const namingId = `bilby:${bilbyDemoIds.naming}:${bilbyDemoIds.namingCall}`;
const busyId = `bilby:${bilbyDemoIds.busy}:${bilbyDemoIds.busyCall}`;
const regionQuestion = 'Which region should the new workspace for Acme Corp live in?';
const ownerQuestion = 'Who should own the workspace: Dana Whitfield or the Acme IT team?';

test('one list with the three systems side by side, each row naming its source', async ({
  page,
}) => {
  await page.goto('./');
  await expect(row(page, demoIds.pendingYesNo).locator('[data-source="reflexio"]')).toHaveText(
    'Reflexio',
    firstVisit,
  );
  await expect(row(page, twoQuestionsId).locator('[data-source="vertesia"]')).toHaveText(
    'Vertesia',
  );
  await expect(row(page, databaseId).locator('[data-source="bilby"]')).toHaveText('Bilby');
  await expect(row(page, busyId).locator('[data-source="bilby"]')).toHaveText('Bilby');
  await expectNoA11yViolations(page);

  // The seed's busy Bilby conversation is busy in the demo too.
  await row(page, busyId).getByRole('link').click();
  await expect(drawer(page).getByTestId('agent-busy-note')).toBeVisible();
});

test('a Vertesia ask and a Bilby multi-select answered in the demo outlive the worker and a reload', async ({
  page,
  context,
}) => {
  // This test looks at each question after answering it: "answer and next" off.
  await page.addInitScript(() => localStorage.setItem('qi:answer-and-next', 'off'));
  await page.goto(`questions/${encodeURIComponent(twoQuestionsId)}`);
  const ask = drawer(page);
  await ask.getByRole('textbox', { name: regionQuestion }).fill('eu-west-1 (Ireland)', firstVisit);
  await ask.getByRole('textbox', { name: ownerQuestion }).fill('Dana Whitfield');
  await ask.getByRole('button', answerButton).click();
  await expect(page.getByText('Answer sent')).toBeVisible();

  await page.goto(`questions/${databaseId}`);
  const call = drawer(page);
  await call.getByRole('radio', { name: 'Postgres 17' }).check();
  await call.getByRole('checkbox', { name: 'PostGIS' }).check();
  await call.getByRole('checkbox', { name: 'pgvector' }).check();
  await call.getByRole('button', answerButton).click();
  await expect(page.getByText('Answer sent')).toBeVisible();

  // The browser stops an idle worker whenever it likes; the next one starts from IndexedDB.
  const cdp = await context.newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await page.goto('questions?status=all');
  await expect(row(page, twoQuestionsId)).toContainText('Resolved');
  // Bilby forgets a question once it is answered: it has left the list.
  await expect(row(page, namingId)).toBeVisible();
  await expect(row(page, databaseId)).toHaveCount(0);

  const vertesia = await systemState(page, 'vertesia');
  expect(vertesia.asks.find((a) => a.askId === vertesiaDemoIds.twoQuestions)).toMatchObject({
    status: 'resolved',
    response: `Q: ${regionQuestion}\nA: eu-west-1 (Ireland)\n\nQ: ${ownerQuestion}\nA: Dana Whitfield`,
  });
  const bilby = await systemState(page, 'bilby');
  const database = bilby.conversations.find((c) => c.id === bilbyDemoIds.database);
  expect(database?.pendingQuestions).toEqual([]);
  expect(database?.answered).toEqual([
    expect.objectContaining({
      toolCallId: bilbyDemoIds.databaseCall,
      output: expect.objectContaining({
        status: 'answered',
        summary: 'Postgres: Postgres 17; Extensions: PostGIS, pgvector',
      }),
    }),
  ]);
});

test('Reset demo brings all three systems back to their made-up data', async ({ page }) => {
  await page.goto('./');
  await expect(row(page, refundId)).toBeVisible(firstVisit);
  // Someone else answers one question of each system (the mocks' control surfaces, through the
  // worker, so it is saved like the page's own changes).
  const changes = await page.evaluate(
    async ({ reflexio, vertesia, bilby }) => {
      const post = (path: string, body: unknown = {}) =>
        fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).then((response) => response.status);
      return Promise.all([
        post(`__mock/questions/${reflexio}/cancel`),
        post(`vertesia/__mock/asks/${vertesia}/resolve`, { response: 'Approved in the chat' }),
        post(`bilby/__mock/conversations/${bilby.id}/tool-calls/${bilby.call}/answer`),
      ]);
    },
    {
      reflexio: demoIds.pendingYesNo,
      vertesia: vertesiaDemoIds.refund,
      bilby: { id: bilbyDemoIds.naming, call: bilbyDemoIds.namingCall },
    },
  );
  expect(changes).toEqual([200, 200, 200]);
  await page.reload();
  await expect(row(page, demoIds.pendingYesNo)).toHaveCount(0);
  await expect(row(page, refundId)).toHaveCount(0);
  await expect(row(page, namingId)).toHaveCount(0);

  // Reset reloads the page once the mocks are reset (the old page may show rows first).
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
  await expect(row(page, refundId)).toBeVisible();
  await expect(row(page, namingId)).toBeVisible();
  expect((await demoCall(page, demoIds.pendingYesNo))?.status).toBe('pending');
  const vertesia = await systemState(page, 'vertesia');
  expect(vertesia.asks.find((a) => a.askId === vertesiaDemoIds.refund)?.status).toBe('pending');
  const bilby = await systemState(page, 'bilby');
  expect(bilby.conversations.find((c) => c.id === bilbyDemoIds.naming)?.answered).toEqual([]);
});
