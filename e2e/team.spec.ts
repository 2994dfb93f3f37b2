import {
  type BrowserContext,
  test as base,
  expect,
  request as playwrightRequest,
} from '@playwright/test';
import { drawer, MockControl, row } from './fixtures';
import { startReviewerPortal } from './reviewer-portal';

/**
 * Who is on it: a portal server of its own (per worker) with REVIEWER_HEADER=X-Forwarded-Email,
 * a short presence time to live and 30-second claims, and two reviewers as two browser contexts.
 */
const test = base.extend<{ scene: Scene }, { portal: string }>({
  portal: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature.
    async ({}, use) => {
      const portal = await startReviewerPortal({
        PRESENCE_TTL_SECONDS: '12',
        CLAIM_MINUTES: '0.5',
      });
      await use(portal.url);
      await portal.stop();
    },
    { scope: 'worker', timeout: 150_000 },
  ],
  scene: async ({ browser, portal }, use, testInfo) => {
    const tag = `${testInfo.workerIndex}-${testInfo.repeatEachIndex}-${Date.now()}`;
    const tenant = `team-${tag}`;
    // The mock's control routes need the SSO identity on this server, as every write does.
    const api = await playwrightRequest.newContext({
      baseURL: portal,
      extraHTTPHeaders: { 'X-Forwarded-Email': 'operator@example.com' },
    });
    const mock = new MockControl(api, tenant);
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
      async reviewer(email) {
        const context = await browser.newContext({
          baseURL: portal,
          extraHTTPHeaders: { 'X-Forwarded-Email': email },
        });
        contexts.push(context);
        await context.addCookies([{ name: 'mock_tenant', value: tenant, url: portal }]);
        await context.addInitScript(() => localStorage.setItem('qi:answer-and-next', 'off'));
        return context;
      },
    });
    // A journey may have closed one already (Alice closing her browser).
    for (const context of contexts) await context.close().catch(() => {});
    await api.dispose();
  },
});

/** One journey's tenant of the mock, its questions and its reviewers, torn down after it. */
interface Scene {
  /** Unique to this journey (and this repeat): in tenants and reviewers' names. */
  tag: string;
  mock: MockControl;
  /** Asks each question (an hour to answer), in order; their ids. */
  ask(questions: string[]): Promise<string[]>;
  /** A browser context whose every request says it is `email` (X-Forwarded-Email). */
  reviewer(email: string): Promise<BrowserContext>;
}

test('Bob sees Alice viewing and typing, then gone; Bob claims, Alice is asked; the Claimed filter', async ({
  scene,
}) => {
  test.slow();
  const { tag } = scene;
  const alice = `alice-${tag}@example.com`;
  const bob = `bob-${tag}@example.com`;
  const ids = await scene.ask(['Rotate the staging keys?', 'Archive the old reports?']);
  const [id, otherId] = ids as [string, string];
  const aliceContext = await scene.reviewer(alice);
  const bobContext = await scene.reviewer(bob);
  const b = await bobContext.newPage();
  await b.goto('questions');
  // Bob's presence code is here once its bar is.
  await expect(b.getByTestId('claimed-filter')).toBeVisible();

  const a = await aliceContext.newPage();
  await a.goto(`questions/${id}`);
  await expect(drawer(a).getByTestId('drawer-team')).toBeVisible();
  await expect(row(b, id).getByTestId('row-team')).toHaveText(`alice-${tag} viewing`, {
    timeout: 3000,
  });
  await row(b, id).getByRole('link').click();
  await expect(drawer(b).getByText(`${alice} is viewing`)).toBeVisible({ timeout: 3000 });

  await drawer(a).getByRole('textbox', { name: 'Answer' }).pressSequentially('Yes');
  await expect(drawer(b).getByText(`${alice} is typing an answer`)).toBeVisible({
    timeout: 3000,
  });

  // Bob claims; Alice sees it and is asked before her answer goes.
  await drawer(b).getByRole('button', { name: 'Claim' }).click();
  await expect(drawer(b).getByText(/You hold this question/)).toBeVisible();
  await expect(drawer(a).getByTestId('claimed-by')).toContainText(`Claimed by bob-${tag}`);
  await drawer(a).getByRole('button', { name: 'Answer', exact: true }).click();
  const ask = drawer(a).getByRole('alertdialog', { name: 'Answer a claimed question?' });
  await expect(ask).toContainText(`bob-${tag} has claimed this question. Answer anyway?`);
  await ask.getByRole('button', { name: "Don't answer" }).click();
  await expect(ask).toBeHidden();

  // The Claimed filter, in the URL.
  await a.goto('questions?claimed=anyone');
  await expect(row(a, id)).toBeVisible();
  await expect(row(a, otherId)).toBeHidden();
  await expect(row(a, id).getByTestId('row-team')).toContainText(`claimed by bob-${tag}`);
  await a.getByLabel('Claimed').selectOption('unclaimed');
  await expect(a).toHaveURL(/claimed=unclaimed/);
  await expect(row(a, otherId)).toBeVisible();
  await expect(row(a, id)).toBeHidden();

  // Alice closes her browser: within the time to live (12 s here), Bob sees nobody.
  await aliceContext.close();
  await expect(drawer(b).getByText(`${alice} is`)).toBeHidden({ timeout: 30_000 });
});

test('Alice answers; Bob, on the same question, sees it at once in the drawer and its History, not at a poll', async ({
  scene,
}) => {
  test.slow();
  const { tag } = scene;
  const alice = `alice-${tag}@example.com`;
  const ids = await scene.ask(['Roll back the 4.13 release?']);
  const [id] = ids as [string];
  const aliceContext = await scene.reviewer(alice);
  const bobContext = await scene.reviewer(`bob-${tag}@example.com`);
  // Bob's portal polls every 10 minutes: what reaches him within seconds came live.
  await bobContext.route('**/config.json', async (route) => {
    const response = await route.fetch();
    const config = (await response.json()) as Record<string, unknown>;
    await route.fulfill({ response, json: { ...config, pollIntervalMs: 600_000 } });
  });
  const b = await bobContext.newPage();
  await b.goto(`questions/${id}`);
  await expect(drawer(b).getByTestId('drawer-team')).toBeVisible();
  await expect(drawer(b).getByText('Nothing done here through the portal yet.')).toBeVisible();

  const a = await aliceContext.newPage();
  await a.goto(`questions/${id}`);
  await expect(drawer(b).getByText(`${alice} is viewing`)).toBeVisible();
  await drawer(a).getByRole('textbox', { name: 'Answer' }).fill('Yes, roll it back');
  await drawer(a).getByRole('button', { name: 'Answer', exact: true }).click();
  await expect(drawer(a).getByText(`Answered by ${alice}`)).toBeVisible();

  await expect(drawer(b).getByText('Answered by someone else: “Yes, roll it back”')).toBeVisible({
    timeout: 5000,
  });
  await expect(drawer(b).getByText(`Answered by ${alice}`)).toBeVisible({ timeout: 5000 });
});

test("Alice's two tabs count once: one sends for both, Bob sees both questions viewed and typing", async ({
  scene,
}) => {
  test.slow();
  const { tag } = scene;
  const alice = `alice-${tag}@example.com`;
  const ids = await scene.ask(['Restart the queue workers?', 'Purge the CDN cache?']);
  const [first, second] = ids as [string, string];
  const aliceContext = await scene.reviewer(alice);
  const bobContext = await scene.reviewer(`bob-${tag}@example.com`);
  const b = await bobContext.newPage();
  await b.goto('questions');
  await expect(b.getByTestId('claimed-filter')).toBeVisible();

  const one = await aliceContext.newPage();
  await one.goto(`questions/${first}`);
  await expect(drawer(one).getByTestId('drawer-team')).toBeVisible();
  await expect(row(b, first).getByTestId('row-team')).toHaveText(`alice-${tag} viewing`);
  // The second tab's presence goes through the first (which holds the presence lock).
  const two = await aliceContext.newPage();
  const sentByTwo: string[] = [];
  two.on('request', (request) => {
    if (request.url().includes('/portal-api/team/presence')) sentByTwo.push(request.url());
  });
  await two.goto(`questions/${second}`);
  await expect(drawer(two).getByTestId('drawer-team')).toBeVisible();
  await expect(row(b, second).getByTestId('row-team')).toHaveText(`alice-${tag} viewing`, {
    timeout: 3000,
  });
  await expect(row(b, first).getByTestId('row-team')).toHaveText(`alice-${tag} viewing`);
  await drawer(two).getByRole('textbox', { name: 'Answer' }).pressSequentially('No');
  await expect(row(b, second).getByTestId('row-team')).toHaveText(`alice-${tag} typing`, {
    timeout: 3000,
  });
  // Closing the question in the second tab: gone for Bob at once, not after the time to live.
  await drawer(two).getByRole('button', { name: 'Close question' }).click();
  await expect(row(b, second).getByTestId('row-team')).toBeHidden({ timeout: 3000 });
  await expect(row(b, first).getByTestId('row-team')).toHaveText(`alice-${tag} viewing`);
  expect(sentByTwo).toEqual([]);
});

test('Claim for the selected rows: Bob claims two at once, Alice is told who holds them', async ({
  scene,
}) => {
  test.slow();
  const { tag } = scene;
  const ids = await scene.ask([
    'Drain the old queue?',
    'Delete the stale branches?',
    'Pause the nightly export?',
  ]);
  const [first, second, third] = ids as [string, string, string];
  const bobContext = await scene.reviewer(`bob-${tag}@example.com`);
  const aliceContext = await scene.reviewer(`alice-${tag}@example.com`);
  const b = await bobContext.newPage();
  await b.goto('questions');
  await expect(b.getByTestId('claimed-filter')).toBeVisible();
  const selectedBar = (page: typeof b) => page.getByRole('toolbar', { name: 'Selected questions' });
  await b.getByRole('checkbox', { name: 'Select: Drain the old queue?' }).check();
  await b.getByRole('checkbox', { name: 'Select: Delete the stale branches?' }).check();
  await selectedBar(b).getByRole('button', { name: 'Claim', exact: true }).click();
  await expect(selectedBar(b).getByRole('status')).toHaveText('Claimed 2 of 2.');
  await expect(row(b, first).getByTestId('row-team')).toContainText('claimed by you');
  await expect(row(b, second).getByTestId('row-team')).toContainText('claimed by you');

  const a = await aliceContext.newPage();
  await a.goto('questions');
  await expect(row(a, first).getByTestId('row-team')).toContainText(`claimed by bob-${tag}`);
  await a.getByRole('checkbox', { name: 'Select: Drain the old queue?' }).check();
  await a.getByRole('checkbox', { name: 'Select: Pause the nightly export?' }).check();
  await selectedBar(a).getByRole('button', { name: 'Claim', exact: true }).click();
  await expect(selectedBar(a).getByRole('status')).toHaveText(
    `Claimed 1 of 2. 1 not: bob-${tag}@example.com has claimed this question.`,
  );
  await expect(row(a, third).getByTestId('row-team')).toContainText('claimed by you');
  // The Claimed filter sits among the list's pickers and keeps its choice in the URL.
  await a.getByRole('combobox', { name: 'Claimed' }).selectOption('mine');
  await expect(a).toHaveURL(/claimed=mine/);
  await expect(row(a, third)).toBeVisible();
  await expect(row(a, first)).toBeHidden();
});

test('Claim on a look-alike group takes every ask; Release gives them all back', async ({
  scene,
}) => {
  test.slow();
  const { tag } = scene;
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    // The same question again, later (within 5 minutes of the last, an ask is a retry).
    if (i > 0) await scene.mock.call('POST', 'clock', { advanceMs: 6 * 60_000 });
    const asked = await scene.mock.ask({
      question: 'Roll back the 4.12 release?',
      answer_format: 'yes/no',
      expires_in_seconds: 3600,
    });
    ids.push(asked.id);
  }
  const bob = `bob-${tag}@example.com`;
  const bobContext = await scene.reviewer(bob);
  const b = await bobContext.newPage();
  await b.goto('questions');
  // The group's row opens the question with its asks (one ask alone opens from its own link).
  await row(b, ids[0] as string)
    .getByRole('link', { name: 'Roll back the 4.12 release?' })
    .click();
  await expect(b).toHaveURL(/asks=all$/);
  await drawer(b).getByRole('button', { name: 'Claim all 3 asks' }).click();
  await expect(drawer(b).getByText(/You hold this question/)).toBeVisible();
  const held = async () => {
    const state = (await (await bobContext.request.get('portal-api/team/state')).json()) as {
      claims: { questionId: string; reviewer: string }[];
    };
    return state.claims
      .filter((claim) => ids.includes(claim.questionId))
      .map((claim) => `${claim.questionId} ${claim.reviewer}`)
      .sort();
  };
  expect(await held()).toEqual(ids.map((id) => `${id} ${bob}`).sort());
  await drawer(b).getByRole('button', { name: 'Release' }).click();
  await expect(drawer(b).getByRole('button', { name: 'Claim all 3 asks' })).toBeVisible();
  expect(await held()).toEqual([]);
});

test('a claim expires by itself', async ({ scene }) => {
  test.slow();
  const { tag } = scene;
  const ids = await scene.ask(['Reboot the build farm?']);
  const [id] = ids as [string];
  const bobContext = await scene.reviewer(`bob-${tag}@example.com`);
  const aliceContext = await scene.reviewer(`alice-${tag}@example.com`);
  const b = await bobContext.newPage();
  await b.goto(`questions/${id}`);
  await drawer(b).getByRole('button', { name: 'Claim' }).click();
  await expect(drawer(b).getByText(/You hold this question/)).toBeVisible();
  const a = await aliceContext.newPage();
  await a.goto('questions');
  const label = row(a, id).getByTestId('row-team');
  await expect(label).toContainText(`claimed by bob-${tag} · 1 min left`);
  // CLAIM_MINUTES=0.5 here: gone within the claim's 30 s and the list's 5 s re-check (Bob is
  // still there, viewing it).
  await expect(label).toHaveText(`bob-${tag} viewing`, { timeout: 45_000 });
  await expect(drawer(b).getByRole('button', { name: 'Claim' })).toBeVisible({ timeout: 10_000 });
});
