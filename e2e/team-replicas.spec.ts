import {
  type BrowserContext,
  test as base,
  expect,
  request as playwrightRequest,
} from '@playwright/test';
import { freePort, type PortalProcess, startPortalProcess } from '../scripts/portal-process.ts';
import { postgresAvailable, startTestPostgres } from '../server/db/test-postgres';
import { drawer, MockControl, row } from './fixtures';

/**
 * Two replicas of the portal server on one real PostgreSQL (a throwaway server, see
 * server/db/test-postgres.ts): replica A serves the Reflexio mock, replica B proxies to it
 * (REFLEXIO_URL), so both show the same questions. Alice is on A, Bob on B.
 */
const test = base.extend<object, { replicas: [string, string] }>({
  replicas: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature.
    async ({}, use) => {
      const postgres = await startTestPostgres();
      const databaseUrl = await postgres.createDatabase();
      const servers: PortalProcess[] = [];
      const start = async (port: number, extra: Record<string, string>) => {
        const server = await startPortalProcess({
          ...process.env,
          PORT: String(port),
          REVIEWER_HEADER: 'X-Forwarded-Email',
          DATABASE_URL: databaseUrl,
          MOCK_SEED: 'empty',
          MOCK_SIMULATOR_SECONDS: '0',
          MOCK_LATENCY_MS: '0',
          PRESENCE_TTL_SECONDS: '12',
          // A reads the mock every second: a browser's list is its copy, as fresh as that.
          WATCH_INTERVAL_SECONDS: '1',
          ...extra,
        });
        servers.push(server);
        return `http://127.0.0.1:${port}/`;
      };
      try {
        const a = await start(await freePort(), {});
        const b = await start(await freePort(), { REFLEXIO_URL: a });
        await use([a, b]);
      } finally {
        for (const server of servers) await server.stop();
        await postgres.stop();
      }
    },
    { scope: 'worker', timeout: 240_000 },
  ],
});

test.skip(!postgresAvailable(), 'needs PostgreSQL (server/db/test-postgres.ts)');

test('Alice on one replica, Bob on another: presence and claims travel through PostgreSQL', async ({
  browser,
  replicas: [a, b],
}, testInfo) => {
  test.slow();
  const tag = `${testInfo.workerIndex}-${testInfo.repeatEachIndex}-${Date.now()}`;
  const alice = `alice-${tag}@example.com`;
  // The mock's control routes need the SSO identity on this server, as every write does.
  const api = await playwrightRequest.newContext({
    baseURL: a,
    extraHTTPHeaders: { 'X-Forwarded-Email': 'operator@example.com' },
  });
  // Replica B's proxy sends no mock cookie: both read the mock's default tenant.
  const mock = new MockControl(api, 'default');
  await mock.reset('empty');
  const { id } = await mock.ask({ question: 'Scale the workers down?', expires_in_seconds: 3600 });
  const contexts: BrowserContext[] = [];
  try {
    const context = (base: string, email: string) =>
      browser.newContext({ baseURL: base, extraHTTPHeaders: { 'X-Forwarded-Email': email } });
    const aliceContext = await context(a, alice);
    const bobContext = await context(b, `bob-${tag}@example.com`);
    contexts.push(aliceContext, bobContext);
    const bobPage = await bobContext.newPage();
    await bobPage.goto('questions');
    await expect(bobPage.getByTestId('claimed-filter')).toBeVisible();
    // Asked just now: in the list once the watcher has read it (an interval), not before.
    await expect(row(bobPage, id)).toBeVisible();
    const alicePage = await aliceContext.newPage();
    await alicePage.goto(`questions/${id}`);
    await expect(drawer(alicePage).getByTestId('drawer-team')).toBeVisible();
    await expect(row(bobPage, id).getByTestId('row-team')).toHaveText(`alice-${tag} viewing`, {
      timeout: 3000,
    });
    await row(bobPage, id).getByRole('link').click();
    await drawer(bobPage).getByRole('button', { name: 'Claim' }).click();
    await expect(drawer(alicePage).getByTestId('claimed-by')).toContainText(
      `Claimed by bob-${tag}`,
    );
  } finally {
    for (const context of contexts) await context.close();
    await api.dispose();
  }
});
