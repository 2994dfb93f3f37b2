// Who did what, in the static demo: the Service Worker keeps the audit trail in the browser, as
// the portal server keeps it in its database (server/audit/core.ts runs in both).
import { bilbyDemoIds } from '../../mock/bilby/seed';
import { demoIds } from '../../mock/seed';
import { vertesiaDemoIds } from '../../mock/vertesia/seed';
import { drawer, expect, row, test } from './fixtures';

// A first visit installs the Service Worker (it caches the whole app) before the portal starts.
const firstVisit = { timeout: 30_000 };
const answerButton = { name: 'Answer', exact: true } as const;
const visitor = 'alice@example.com';

test('answer as the named visitor; History, the row, Activity and its CSV say so; Reset clears it', async ({
  page,
  context,
}) => {
  test.slow();
  // "Answer and next" off: the drawer stays on the question answered.
  await context.addInitScript(() => localStorage.setItem('qi:answer-and-next', 'off'));
  await page.goto('./');
  const name = page.getByRole('textbox', { name: 'You are' });
  await expect(name).toHaveValue('Reviewer', firstVisit);
  await name.fill(visitor);
  await name.blur();

  await row(page, demoIds.pendingYesNo).getByRole('link').click();
  const question = drawer(page);
  const history = question.getByRole('region', { name: 'History' });
  await expect(history).toContainText('Nothing done here through the portal yet.');
  await question.getByRole('textbox', { name: 'Answer' }).fill('Yes, issue the credit note');
  await question.getByRole('button', answerButton).click();
  await expect(page.getByText('Answer sent')).toBeVisible();

  // Opened again later: History names the visitor, and so does the row.
  await page.goto('questions?status=resolved');
  await expect(row(page, demoIds.pendingYesNo).getByTestId('acted-by')).toHaveText('by alice');
  await row(page, demoIds.pendingYesNo).getByRole('link').click();
  await expect(history).toContainText(`Answered by ${visitor}`);
  await expect(history).toContainText('Yes, issue the credit note');

  await page.goto('activity');
  const table = page.getByRole('table', { name: 'Activity, newest first' });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('row').nth(1)).toContainText(visitor);
  await expect(table.getByRole('row').nth(1)).toContainText('Yes, issue the credit note');

  // The link's own address, fetched as the page fetches (through the Service Worker).
  const href = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
  const reply = await page.evaluate(async (address) => {
    const response = await fetch(address as string);
    return {
      disposition: response.headers.get('content-disposition'),
      text: await response.text(),
    };
  }, href);
  expect(reply.disposition).toMatch(/attachment/);
  const csv = reply.text.trim().split('\r\n');
  expect(csv).toHaveLength(2);
  // What the question asked, learnt from the demo's mock (the static demo has no watcher).
  expect(csv[1]).toMatch(
    new RegExp(
      `"${visitor}",,"reflexio","reflexio","${demoIds.pendingYesNo}","[^"]+","answer",200,`,
    ),
  );
  expect(csv[1]).toContain(',"Yes, issue the credit note","full",');
  // The visitor typed their name: the entry is self-named (the last column).
  expect(csv[1]).toMatch(/,true$/);

  await page
    .getByRole('region', { name: 'Demo' })
    .getByRole('button', { name: 'Reset demo' })
    .click();
  await page
    .getByRole('group', { name: 'Reset the demo?' })
    .getByRole('button', { name: 'Erase and reset' })
    .click();
  await expect(page.getByText('Nothing has been done through the portal yet.')).toBeVisible();
});

test('a Vertesia answer, a Bilby not-applicable and a refusal, each as the server records them', async ({
  page,
}) => {
  await page.goto('./');
  await expect(page.getByRole('textbox', { name: 'You are' })).toHaveValue('Reviewer', firstVisit);
  // Through the worker as the page sends them: the answers the portal's adapters send.
  const statuses = await page.evaluate(
    async ({ vertesia, bilby }) => {
      const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
        }).then((response) => response.status);
      return [
        await post(
          `vertesia/api/v1/pending-asks/${vertesia.refund}/resolve`,
          { response: 'Refund approved' },
          { 'x-api-version': '20260803' },
        ),
        await post(
          `bilby/api/v1/conversations/${bilby.naming}/tool-outputs?organizationId=6f1c2a9e-4b7d-4c1e-9a2f-3d5e7b9c1a2f`,
          {
            outputs: [
              {
                toolCallId: bilby.namingCall,
                output: { status: 'dismissed', answers: [], summary: 'Not applicable' },
              },
            ],
          },
        ),
        // Answered already: the system refuses it, and the trail keeps the refusal.
        await post(
          `vertesia/api/v1/pending-asks/${vertesia.refund}/resolve`,
          { response: 'Again' },
          { 'x-api-version': '20260803' },
        ),
      ];
    },
    { vertesia: vertesiaDemoIds, bilby: bilbyDemoIds },
  );
  expect(statuses[0]).toBeLessThan(300);
  expect(statuses[1]).toBeLessThan(300);
  expect(statuses[2]).toBeGreaterThanOrEqual(400);

  await page.goto('activity?source=vertesia');
  const table = page.getByRole('table', { name: 'Activity, newest first' });
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(table.getByRole('row').nth(1)).toContainText('Again');
  await expect(table.getByRole('row').nth(1)).toContainText(`refused (${statuses[2]})`);
  await expect(table.getByRole('row').nth(2)).toContainText('Refund approved');
  await page.goto('activity?source=bilby');
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('row').nth(1)).toContainText('Reviewer');
  await expect(table.getByRole('row').nth(1)).toContainText(
    `${bilbyDemoIds.naming}:${bilbyDemoIds.namingCall}`,
  );
});
