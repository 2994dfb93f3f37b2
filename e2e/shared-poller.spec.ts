import type { Page } from '@playwright/test';
import { expect, row, test } from './fixtures';

test.describe.configure({ timeout: 180_000 });

const isListRequest = (url: string) =>
  /\/api\/pending_tool_calls(\?|$)/.test(new URL(url).pathname + new URL(url).search);

/** Counts the list requests each page sends. */
function countLists(pages: Page[]) {
  const counts = new Map<Page, number>(pages.map((p) => [p, 0]));
  for (const page of pages) {
    page.on('request', (request) => {
      if (isListRequest(request.url())) counts.set(page, (counts.get(page) ?? 0) + 1);
    });
  }
  return {
    reset: () => {
      for (const page of pages) counts.set(page, 0);
    },
    of: (page: Page) => counts.get(page) ?? 0,
    total: () => [...counts.values()].reduce((a, b) => a + b, 0),
  };
}

test('three tabs share one poller; closing the polling tab hands over', async ({
  context,
  mock,
}) => {
  const pages = [await context.newPage(), await context.newPage(), await context.newPage()];
  const counter = countLists(pages);
  for (const page of pages) {
    await page.goto('questions');
    await expect(page.getByRole('radio', { name: /^All \d+/ })).toBeAttached({ timeout: 20_000 });
  }
  counter.reset();

  // A new question reaches every tab, but only one tab asks the API for lists.
  const first = await mock.ask({
    question: 'E2E: shared poller, first arrival',
    expires_in_seconds: 600,
  });
  for (const page of pages) await expect(row(page, first.id)).toBeVisible({ timeout: 25_000 });
  const polling = pages.filter((page) => counter.of(page) > 0);
  expect(polling).toHaveLength(1);
  const leader = polling[0] as Page;

  // The polling tab closes: another one takes over within one poll interval (10 s) and the
  // remaining tabs keep getting new questions.
  await leader.close();
  const rest = pages.filter((page) => page !== leader);
  counter.reset();
  const second = await mock.ask({
    question: 'E2E: shared poller, after hand-over',
    expires_in_seconds: 600,
  });
  for (const page of rest) await expect(row(page, second.id)).toBeVisible({ timeout: 25_000 });
  expect(rest.filter((page) => counter.of(page) > 0)).toHaveLength(1);
});
