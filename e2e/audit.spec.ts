import {
  type Browser,
  type BrowserContext,
  test as base,
  expect,
  request as playwrightRequest,
} from '@playwright/test';
import { drawer, expectNoA11yViolations, MockControl, row } from './fixtures';
import { startReviewerPortal } from './reviewer-portal';

/**
 * Who did what, behind an SSO proxy: a portal server of its own (per worker, on a port of its
 * own) with REVIEWER_HEADER=X-Forwarded-Email, and two reviewers as two browser contexts whose
 * every request carries a different X-Forwarded-Email, as oauth2-proxy would set it.
 */
const test = base.extend<object, { portal: string }>({
  portal: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature.
    async ({}, use) => {
      const portal = await startReviewerPortal();
      await use(portal.url);
      await portal.stop();
    },
    { scope: 'worker', timeout: 150_000 },
  ],
});

async function reviewer(browser: Browser, portal: string, email: string, tenant: string) {
  const context = await browser.newContext({
    baseURL: portal,
    extraHTTPHeaders: { 'X-Forwarded-Email': email },
  });
  await context.addCookies([{ name: 'mock_tenant', value: tenant, url: portal }]);
  // These journeys look at the drawer after the action: "answer and next" off.
  await context.addInitScript(() => localStorage.setItem('qi:answer-and-next', 'off'));
  return context;
}

test('Alice answers, Bob sees who and edits, Alice sees both; /activity and its CSV by reviewer', async ({
  browser,
  portal,
}, testInfo) => {
  test.slow();
  const tag = `${testInfo.workerIndex}-${testInfo.repeatEachIndex}-${Date.now()}`;
  const tenant = `audit-${tag}`;
  const alice = `alice-${tag}@example.com`;
  const bob = `bob-${tag}@example.com`;
  // The mock's control routes need the SSO identity on this server, as every write does.
  const api = await playwrightRequest.newContext({
    baseURL: portal,
    extraHTTPHeaders: { 'X-Forwarded-Email': 'operator@example.com' },
  });
  const mock = new MockControl(api, tenant);
  await mock.reset('empty');
  const { id } = await mock.ask({
    question: 'Delete the preview environments?',
    expires_in_seconds: 3600,
  });

  const contexts: BrowserContext[] = [];
  try {
    const aliceContext = await reviewer(browser, portal, alice, tenant);
    const bobContext = await reviewer(browser, portal, bob, tenant);
    contexts.push(aliceContext, bobContext);
    const a = await aliceContext.newPage();
    const b = await bobContext.newPage();

    await a.goto(`questions/${id}`);
    await expect(a.getByTestId('signed-in-reviewer')).toHaveText(`Signed in as ${alice}`);
    const aliceDrawer = drawer(a);
    await aliceDrawer.getByRole('textbox', { name: 'Answer' }).fill('Yes, delete them');
    await aliceDrawer.getByRole('button', { name: 'Answer', exact: true }).click();
    await expect(a.getByText('Answer sent')).toBeVisible();

    await b.goto('questions?status=resolved');
    await expect(row(b, id).getByTestId('acted-by')).toHaveText(`by alice-${tag}`);
    await row(b, id).getByRole('link').click();
    const history = drawer(b).getByRole('region', { name: 'History' });
    await expect(history).toContainText(`Answered by ${alice}`);
    await expect(history).toContainText('Yes, delete them');
    const box = drawer(b).getByRole('textbox', { name: 'Answer' });
    await expect(box).toHaveValue('Yes, delete them');
    await box.fill('No, keep staging');
    await drawer(b).getByRole('button', { name: 'Edit answer' }).click();
    await expect(b.getByText('Answer changed')).toBeVisible();
    // The row says who acted last: Bob now, in his own list at once.
    await expect(row(b, id).getByTestId('acted-by')).toHaveText(`by bob-${tag}`);

    await a.goto(`questions/${id}`);
    const aliceHistory = drawer(a).getByRole('region', { name: 'History' });
    await expect(aliceHistory.getByRole('listitem')).toHaveCount(2);
    await expect(aliceHistory.getByRole('listitem').first()).toContainText(`Edited by ${bob}`);
    await expect(aliceHistory.getByRole('listitem').first()).toContainText(
      'Earlier answer: Yes, delete them',
    );
    await expect(aliceHistory.getByRole('listitem').nth(1)).toContainText(`Answered by ${alice}`);

    await a.goto(`activity?reviewer=${encodeURIComponent(bob)}`);
    const table = a.getByRole('table', { name: 'Activity, newest first' });
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(table.getByRole('row').nth(1)).toContainText(bob);
    await expect(table.getByRole('row').nth(1)).toContainText('Edit');
    await expect(table.getByRole('row').nth(1)).toContainText('No, keep staging');
    await expectNoA11yViolations(a);
    // Drawn with Mantine's field styles (the page once loaded without them: bare browser controls).
    await expect(a.getByRole('textbox', { name: 'Reviewer' })).toHaveCSS('height', '36px');
    // The source is picked among the configured ones, by name; the URL keeps its id.
    await a.getByRole('combobox', { name: 'Source' }).selectOption({ label: 'Reflexio' });
    await a.getByRole('button', { name: 'Apply' }).click();
    await expect(a).toHaveURL(/source=reflexio/);
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(table.getByRole('row').nth(1)).toContainText('Reflexio');
    // The link's own address, fetched as Alice's browser would (her SSO header on it).
    const href = await a.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
    const reply = await aliceContext.request.get(new URL(href as string, a.url()).href);
    expect(reply.headers()['content-disposition']).toMatch(/attachment/);
    const csv = (await reply.text()).trim().split('\r\n');
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain(`"${bob}",,"reflexio","reflexio","${id}",,"edit",200,`);
    expect(csv.join('\n')).not.toContain(alice);

    // Phone width: the table scrolls inside its box, the page itself does not.
    await a.setViewportSize({ width: 390, height: 800 });
    await expect(table).toBeVisible();
    const overflow = await a.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    // The header still links here, and says who is signed in.
    await expect(a.getByRole('link', { name: 'Activity' })).toBeVisible();
    await expect(a.getByTestId('signed-in-reviewer')).toBeVisible();
  } finally {
    for (const context of contexts) await context.close();
    await api.dispose();
  }
});
