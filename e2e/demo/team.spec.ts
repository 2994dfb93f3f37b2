// Who is on it, in the static demo: the Service Worker answers the team routes with the server's
// own logic (server/team/core.ts), and Sam, a simulated colleague, comes and goes. Here he does
// only what the journey tells him (fixtures.ts keeps him from acting on his own).
import { bilbyDemoIds } from '../../mock/bilby/seed';
import { demoIds } from '../../mock/seed';
import { vertesiaDemoIds } from '../../mock/vertesia/seed';
import { drawer, expect, row, test } from './fixtures';

// A first visit installs the Service Worker (it caches the whole app) before the portal starts.
const firstVisit = { timeout: 30_000 };
const vertesiaId = `vertesia:${vertesiaDemoIds.refund}`;
const bilbyId = `bilby:${bilbyDemoIds.database}:${bilbyDemoIds.databaseCall}`;

test('Sam opens questions of all three systems, types, claims; the visitor is asked before answering', async ({
  page,
  colleague,
}) => {
  test.slow();
  await page.goto('./');
  await expect(page.getByTestId('claimed-filter')).toBeVisible(firstVisit);

  // One question open at a time, in any of the three systems.
  await colleague.act('open', { source: 'vertesia', id: vertesiaId });
  await expect(row(page, vertesiaId).getByTestId('row-team')).toHaveText('sam viewing');
  await colleague.act('open', { source: 'bilby', id: bilbyId });
  await expect(row(page, bilbyId).getByTestId('row-team')).toHaveText('sam viewing');
  await expect(row(page, vertesiaId).getByTestId('row-team')).toBeHidden();
  await colleague.act('open', { source: 'reflexio', id: demoIds.pendingYesNo });
  await expect(row(page, demoIds.pendingYesNo).getByTestId('row-team')).toHaveText('sam viewing');
  await expect(row(page, bilbyId).getByTestId('row-team')).toBeHidden();

  await row(page, demoIds.pendingYesNo).getByRole('link').click();
  const question = drawer(page);
  await expect(question.getByText('sam@example.com is viewing')).toBeVisible();
  await colleague.act('type');
  await expect(question.getByText('sam@example.com is typing an answer')).toBeVisible();

  // Sam claims it: the visitor sees so, and is asked before an answer goes.
  await colleague.act('claim');
  await expect(question.getByTestId('claimed-by')).toContainText('Claimed by sam');
  await question.getByRole('textbox', { name: 'Answer' }).fill('Yes, issue the credit note');
  await question.getByRole('button', { name: 'Answer', exact: true }).click();
  const ask = question.getByRole('alertdialog', { name: 'Answer a claimed question?' });
  await expect(ask).toContainText('sam has claimed this question. Answer anyway?');
  await ask.getByRole('button', { name: "Don't answer" }).click();
  await expect(ask).toBeHidden();

  await colleague.act('leave');
  await expect(question.getByText('sam@example.com is')).toBeHidden();
  // The Claimed filter finds it.
  await page.goto('questions?claimed=anyone');
  await expect(row(page, demoIds.pendingYesNo).getByTestId('row-team')).toContainText(
    'claimed by sam',
  );
  await expect(row(page, vertesiaId)).toBeHidden();

  // His claim is in the trail, under his name.
  await page.goto('activity?reviewer=sam%40example.com');
  const table = page.getByRole('table', { name: 'Activity, newest first' });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('row').nth(1)).toContainText('Claim');

  // Sam lets it go: the question can be claimed again.
  await colleague.act('release', { source: 'reflexio', id: demoIds.pendingYesNo });
  await page.goto(`questions/${demoIds.pendingYesNo}`);
  await expect(drawer(page).getByRole('button', { name: 'Claim' })).toBeVisible();
});

test('Sam’s controls are refused from a plain form, like the demo’s other controls', async ({
  page,
}) => {
  await page.goto('./');
  await expect(page.getByTestId('claimed-filter')).toBeVisible(firstVisit);
  // A plain form's content type: refused (a cross-site form could send it).
  const status = await page.evaluate(async () => {
    const response = await fetch('portal-api/__demo/colleague', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ action: 'claim' }),
    });
    return response.status;
  });
  expect(status).toBe(415);
});
