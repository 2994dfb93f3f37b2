import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import {
  type BrowserContext,
  test as base,
  expect,
  type Page,
  request as playwrightRequest,
} from '@playwright/test';
import { createMockBackend } from '../mock/app';
import { freePort, type PortalProcess, startPortalProcess } from '../scripts/portal-process.ts';
import { postgresAvailable, startTestPostgres } from '../server/db/test-postgres';
import { drawer, MockControl, row } from './fixtures';

/**
 * Two replicas of the portal server on one real PostgreSQL, both reaching one Reflexio (the mock,
 * served by this worker, so either replica can die) with a key: whichever holds the lease reads
 * it every second, the other answers its browsers from the shared copy and hears each change
 * through LISTEN/NOTIFY. Each replica runs its own (empty) Vertesia and Bilby mocks.
 */
const METRICS_TOKEN = 'watch-replicas-metrics-token';
const INTERVAL_SECONDS = 1;

interface Replica {
  url: string;
  server: PortalProcess;
}

// Each test has replicas of its own: the journey kills one.
const test = base.extend<{ setup: { mockUrl: string; replicas: Replica[] } }>({
  setup: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature.
    async ({}, use) => {
      const postgres = await startTestPostgres();
      const databaseUrl = await postgres.createDatabase();
      const mock = createMockBackend({ seed: 'empty', simulatorIntervalMs: 0 });
      const mockServer = serve({ fetch: mock.app.fetch, port: 0, hostname: '127.0.0.1' });
      await new Promise((resolve) => mockServer.once('listening', resolve));
      const mockUrl = `http://127.0.0.1:${(mockServer.address() as AddressInfo).port}/`;
      const servers: PortalProcess[] = [];
      try {
        const replicas: Replica[] = [];
        for (let i = 0; i < 2; i++) {
          const port = await freePort();
          const server = await startPortalProcess({
            ...process.env,
            PORT: String(port),
            REVIEWER_HEADER: 'X-Forwarded-Email',
            DATABASE_URL: databaseUrl,
            REFLEXIO_URL: mockUrl,
            REFLEXIO_API_KEY: 'watch-replicas-reflexio-key',
            MOCK_SEED: 'empty',
            MOCK_SIMULATOR_SECONDS: '0',
            MOCK_LATENCY_MS: '0',
            WATCH_INTERVAL_SECONDS: String(INTERVAL_SECONDS),
            METRICS_TOKEN,
          });
          servers.push(server);
          replicas.push({ url: `http://127.0.0.1:${port}/`, server });
        }
        await use({ mockUrl, replicas });
      } finally {
        for (const server of servers) await server.stop();
        await new Promise((resolve) => mockServer.close(resolve));
        mock.close();
        await postgres.stop();
      }
    },
    { timeout: 240_000 },
  ],
});

test.skip(!postgresAvailable(), 'needs PostgreSQL (server/db/test-postgres.ts)');

/** Whether the replica at `url` watches now, as its /metrics says (`qi_watch_leader`). */
async function leads(url: string): Promise<boolean> {
  const reply = await fetch(new URL('metrics', url), {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const text = await reply.text();
  return /^qi_watch_leader 1$/m.test(text);
}

/** The lists' reads a page sends to the systems (a question's own detail read is not one). */
const LIST_READ =
  /\/(api\/pending_tool_calls|vertesia\/api\/v1\/pending-asks|bilby\/api\/v1\/conversations(\/[^/?]+)?)(\?|$)/;

function listReads(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const { pathname, search } = new URL(request.url());
    if (LIST_READ.test(`${pathname}${search}`)) seen.push(pathname);
  });
  return seen;
}

/** Opens the inbox and waits until the page says its lists are live (the `?` help). */
async function openLive(page: Page) {
  await page.goto('questions');
  await expect(page.getByRole('list', { name: 'Questions' })).toBeVisible();
  await page.keyboard.press('Shift+?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toContainText(
    `Updates arrive live: the portal server reads each system every ${INTERVAL_SECONDS} seconds`,
  );
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
}

test('two replicas, one reader: new questions reach both pages live, the other replica takes over', async ({
  browser,
  setup: { mockUrl, replicas },
}, testInfo) => {
  test.slow();
  const tag = `${testInfo.workerIndex}-${testInfo.repeatEachIndex}-${Date.now()}`;
  const api = await playwrightRequest.newContext({ baseURL: mockUrl });
  const mock = new MockControl(api, 'default');
  const contexts: BrowserContext[] = [];
  try {
    await mock.reset('empty');
    const first = await mock.ask({ question: `First of ${tag}?`, expires_in_seconds: 3600 });
    const pages: Page[] = [];
    const reads: string[][] = [];
    for (const [index, replica] of replicas.entries()) {
      const context = await browser.newContext({
        baseURL: replica.url,
        extraHTTPHeaders: { 'X-Forwarded-Email': `reviewer-${index}-${tag}@example.com` },
      });
      contexts.push(context);
      const page = await context.newPage();
      await openLive(page);
      await expect(row(page, first.id)).toBeVisible();
      pages.push(page);
      // From here on a page learns of changes on its stream only.
      reads.push(listReads(page));
    }

    // A question asked now shows in both pages, brought by the stream.
    const asked = Date.now();
    const second = await mock.ask({ question: `Second of ${tag}?`, expires_in_seconds: 3600 });
    for (const [index, page] of pages.entries()) {
      await expect(row(page, second.id)).toBeVisible();
      testInfo.annotations.push({
        type: 'seen',
        description: `replica ${index}: ${Date.now() - asked} ms after it was asked`,
      });
    }
    expect(reads.flat()).toEqual([]);

    // The replica that watches dies without a word; the other takes the lease over.
    const leaders: boolean[] = [];
    await expect
      .poll(async () => {
        leaders.splice(
          0,
          2,
          await leads(replicas[0]?.url ?? ''),
          await leads(replicas[1]?.url ?? ''),
        );
        return leaders.filter(Boolean).length;
      })
      .toBe(1);
    const dead = leaders.indexOf(true);
    const alive = 1 - dead;
    const survivor = replicas[alive] as Replica;
    const page = pages[alive] as Page;
    process.kill((replicas[dead] as Replica).server.pid, 'SIGKILL');
    const meanwhile = await mock.ask({
      question: `Meanwhile of ${tag}?`,
      expires_in_seconds: 3600,
    });
    await expect.poll(() => leads(survivor.url)).toBe(true);
    await expect(row(page, meanwhile.id)).toHaveCount(1);
    const after = await mock.ask({ question: `After of ${tag}?`, expires_in_seconds: 3600 });
    await expect(row(page, after.id)).toHaveCount(1);
    // Seen once, not again by the new reader: each row once, no list read, one record each.
    await expect(row(page, meanwhile.id)).toHaveCount(1);
    expect(reads[alive]).toEqual([]);

    // An answer through the portal: the list shows it at once.
    await row(page, meanwhile.id).getByRole('link').click();
    await drawer(page).getByRole('textbox', { name: 'Answer' }).fill('Yes');
    await drawer(page).getByRole('button', { name: 'Answer', exact: true }).click();
    await expect(page.getByText('Answer sent')).toBeVisible();
    await expect(row(page, meanwhile.id)).toHaveCount(0);

    // The Activity page names the answered question by what it asked, and opens it.
    await page.getByRole('link', { name: 'Activity' }).click();
    const entry = page.getByRole('link', { name: `Meanwhile of ${tag}?` });
    await expect(entry).toBeVisible();
    await page.getByRole('textbox', { name: 'Search' }).fill(`Meanwhile of ${tag}`);
    await page.getByRole('textbox', { name: 'Search' }).press('Enter');
    await expect(entry).toHaveCount(1);
    await entry.click();
    await expect(drawer(page)).toBeVisible();
  } finally {
    for (const context of contexts) await context.close();
    await api.dispose();
  }
});
