import {
  type BrowserContext,
  test as base,
  expect,
  type Page,
  request as playwrightRequest,
} from '@playwright/test';
import { drawer, expectNoA11yViolations, holdBack, MockControl, row } from './fixtures';
import { startReviewerPortal } from './reviewer-portal';

/**
 * Claims as a reviewer meets them beside the rest of the inbox (issue 41): bulk actions that ask
 * before overriding a colleague's claim, the Claimed filter's empty view, and the minutes a fresh
 * claim says. A portal server of its own per worker, with the default 15-minute claims.
 */
const test = base.extend<{ scene: Scene }, { portal: string }>({
  portal: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature.
    async ({}, use) => {
      const portal = await startReviewerPortal();
      await use(portal.url);
      await portal.stop();
    },
    { scope: 'worker', timeout: 150_000 },
  ],
  scene: async ({ browser, portal }, use, testInfo) => {
    const tag = `${testInfo.workerIndex}-${testInfo.repeatEachIndex}-${Date.now()}`;
    // The mock's control routes need the SSO identity on this server, as every write does.
    const api = await playwrightRequest.newContext({
      baseURL: portal,
      extraHTTPHeaders: { 'X-Forwarded-Email': 'operator@example.com' },
    });
    const mock = new MockControl(api, `team-polish-${tag}`);
    await mock.reset('empty');
    const contexts: BrowserContext[] = [];
    await use({
      tag,
      mock,
      async ask(questions) {
        const ids: string[] = [];
        for (const question of questions) {
          ids.push((await mock.ask({ question, expires_in_seconds: 3600 })).id);
        }
        return ids;
      },
      async reviewer(name) {
        const context = await browser.newContext({
          baseURL: portal,
          extraHTTPHeaders: { 'X-Forwarded-Email': `${name}-${tag}@example.com` },
        });
        contexts.push(context);
        await context.addCookies([{ name: 'mock_tenant', value: mock.tenant, url: portal }]);
        await context.addInitScript(() => localStorage.setItem('qi:answer-and-next', 'off'));
        return context.newPage();
      },
    });
    for (const context of contexts) await context.close().catch(() => {});
    await api.dispose();
  },
});

interface Scene {
  tag: string;
  mock: MockControl;
  /** Asks each question (an hour to answer), in order; their ids. */
  ask(questions: string[]): Promise<string[]>;
  /** A page of a browser whose every request says it is `<name>-<tag>@example.com`. */
  reviewer(name: string): Promise<Page>;
}

const selectedBar = (page: Page) => page.getByRole('toolbar', { name: 'Selected questions' });

async function claimInDrawer(page: Page, id: string) {
  await page.goto(`questions/${id}`);
  await drawer(page).getByRole('button', { name: 'Claim' }).click();
  await expect(drawer(page).getByText(/You hold this question/)).toBeVisible();
}

test('a fresh 15-minute claim says 15 min left, to its holder and to the others', async ({
  scene,
}) => {
  test.slow();
  const [id] = (await scene.ask(['Rotate the signing key?'])) as [string];
  const bob = await scene.reviewer('bob');
  await claimInDrawer(bob, id);
  await expect(drawer(bob).getByText('You hold this question · 15 min left')).toBeVisible();
  const alice = await scene.reviewer('alice');
  await alice.goto('questions');
  await expect(row(alice, id).getByTestId('row-team')).toContainText(
    `claimed by bob-${scene.tag} · 15 min left`,
  );
});

test('Claim pressed on the server’s page is done once the app runs, and the team’s line never says there is no portal server', async ({
  scene,
}) => {
  test.slow();
  const [id] = (await scene.ask(['Renew the staging certificate?'])) as [string];
  const bob = await scene.reviewer('bob');
  const release = await holdBack(bob, /\/assets\/[^/]+\.js$/);
  await bob.goto(`questions/${id}`, { waitUntil: 'commit' });
  await expect(drawer(bob).getByRole('button', { name: 'Claim' })).toBeVisible();
  // Whatever the team's line says from here on, it is seen: "this deployment has none" once
  // stood where Claim was, between the app taking the page over and its stream opening.
  await bob.evaluate(() => {
    const flag = () => {
      if (document.querySelector('[data-testid="team-absent"]'))
        document.documentElement.dataset.sawTeamAbsent = '';
    };
    new MutationObserver(flag).observe(document.body, { childList: true, subtree: true });
  });
  await drawer(bob).getByRole('button', { name: 'Claim' }).click();
  await expect(bob.locator('html[data-hydrated]')).not.toBeAttached();
  await release();
  await expect(drawer(bob).getByText('You hold this question · 15 min left')).toBeVisible();
  await expect(bob.locator('html[data-saw-team-absent]')).toHaveCount(0);
  await expect(drawer(bob).getByTestId('team-absent')).toHaveCount(0);
});

test('a bulk action names the questions a colleague has claimed, and leaves them alone if asked', async ({
  scene,
}) => {
  test.slow();
  const [held, free, third] = (await scene.ask([
    'Close the March books?',
    'Archive the Q1 tickets?',
    'Drop the staging replica?',
  ])) as [string, string, string];
  const bob = await scene.reviewer('bob');
  await claimInDrawer(bob, held);

  const alice = await scene.reviewer('alice');
  await alice.goto('questions');
  await expect(row(alice, held).getByTestId('row-team')).toContainText(
    `claimed by bob-${scene.tag}`,
  );
  await alice.getByRole('checkbox', { name: 'Select: Close the March books?' }).check();
  await alice.getByRole('checkbox', { name: 'Select: Archive the Q1 tickets?' }).check();
  await selectedBar(alice).getByRole('button', { name: 'Not applicable…' }).click();
  const dialog = alice.getByRole('dialog', { name: 'Mark 2 questions not applicable?' });
  await expect(dialog.getByTestId('bulk-claimed')).toContainText(
    `bob-${scene.tag} has claimed 1 of them.`,
  );
  await expect(dialog.getByTestId('bulk-claimed')).toContainText('“Close the March books?”');
  await expectNoA11yViolations(alice, '[role="dialog"]');
  await dialog.getByRole('button', { name: 'Only the unclaimed (1)' }).click();
  // Named now for what was sent.
  const done = alice.getByRole('dialog', { name: 'Mark 1 question not applicable?' });
  await expect(done.getByRole('status')).toContainText('Marked 1 of 1 not applicable.');
  await expect(done.getByRole('status')).toContainText(
    '1 question claimed by someone else was left alone and stays selected.',
  );
  await done.getByRole('button', { name: 'Done' }).click();
  expect((await scene.mock.find(held))?.status).toBe('pending');
  expect((await scene.mock.find(free))?.status).toBe('resolved');
  // Bob's question stays ticked: the reviewer can still decide to act on it.
  await expect(
    alice.getByRole('checkbox', { name: 'Select: Close the March books?' }),
  ).toBeChecked();

  // Anyway, when she says so; a selection nobody else holds asks nothing more.
  await selectedBar(alice).getByRole('button', { name: 'Cancel questions…' }).click();
  const cancel = alice.getByRole('dialog', { name: 'Cancel 1 question?' });
  await expect(cancel.getByTestId('bulk-claimed')).toContainText(
    `bob-${scene.tag} has claimed all of them.`,
  );
  await expect(cancel.getByRole('button', { name: /Only the unclaimed/ })).toHaveCount(0);
  await cancel.getByRole('button', { name: 'Cancel questions anyway (1)' }).click();
  await expect(cancel.getByRole('status')).toContainText('Cancelled 1 of 1.');
  await cancel.getByRole('button', { name: 'Done' }).click();
  await alice.getByRole('checkbox', { name: 'Select: Drop the staging replica?' }).check();
  await selectedBar(alice).getByRole('button', { name: 'Not applicable…' }).click();
  const plain = alice.getByRole('dialog', { name: 'Mark 1 question not applicable?' });
  await expect(plain.getByRole('button', { name: 'Mark not applicable (1)' })).toBeVisible();
  await expect(plain.getByTestId('bulk-claimed')).toHaveCount(0);
  await plain.getByRole('button', { name: 'Keep them' }).click();
  expect((await scene.mock.find(third))?.status).toBe('pending');
});

test('"Claimed by me" with none: the filtered-out view, its counts, and Clear filters', async ({
  scene,
}) => {
  test.slow();
  const [first, second] = (await scene.ask([
    'Renew the TLS certificate?',
    'Move the backups?',
  ])) as [string, string];
  const alice = await scene.reviewer('alice');
  await alice.goto('questions?claimed=mine');
  await expect(alice.getByTestId('claimed-filter')).toBeVisible();
  const empty = alice.getByTestId('list-filtered-out');
  await expect(empty).toContainText('No questions match these filters');
  await expect(alice.getByTestId('list-empty')).toHaveCount(0);
  await expect(
    alice
      .getByRole('radiogroup', { name: 'Status' })
      .getByRole('radio', { name: 'Pending 0 of 2' }),
  ).toBeChecked();
  await expectNoA11yViolations(alice);
  await empty.getByRole('button', { name: 'Clear filters' }).click();
  await expect(alice).not.toHaveURL(/claimed=/);
  await expect(row(alice, first)).toBeVisible();
  await expect(row(alice, second)).toBeVisible();
});
