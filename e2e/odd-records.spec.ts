// Records no real system should send, from Vertesia and Bilby as from Reflexio: an id that cannot
// be put in an address, a megabyte of question, text that hides what it says. One such record is
// shown as it is, read-only where it must be, and never takes its whole source down.
import type { APIRequestContext, Page } from '@playwright/test';
import { bilbyDemoIds } from '../mock/bilby/seed';
import { vertesiaDemoIds } from '../mock/vertesia/seed';
import { drawer, expect, fetchRouted, row, test } from './fixtures';

async function control(
  request: APIRequestContext,
  tenant: string,
  system: 'vertesia' | 'bilby',
  path: string,
  data?: unknown,
) {
  const response = await request.fetch(`${system}/__mock/${path}`, {
    method: 'POST',
    headers: { 'x-mock-tenant': tenant, connection: 'close' },
    data,
  });
  if (!response.ok()) throw new Error(`${system} mock ${path}: ${response.status()}`);
  return response.json();
}

test.beforeEach(async ({ request, mock }) => {
  for (const system of ['vertesia', 'bilby'] as const) {
    await control(request, mock.tenant, system, 'reset', { seed: 'demo' });
  }
});

/** Every request the page makes to `pattern`, as paths with their query. */
function requestsTo(page: Page, pattern: RegExp): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (pattern.test(url.pathname)) seen.push(`${url.pathname}${url.search}`);
  });
  return seen;
}

test.describe('ids no address can hold, as the browser reads its lists', () => {
  // page.route edits what the browser reads; the server's first screen reads apart from it, so
  // these pages are the browser's own render (docs/server-rendering.md, "Known gaps").
  test.use({ firstScreen: false });

  test('a Vertesia ask with the id ".." is shown read-only and never asked for', async ({
    page,
  }) => {
    await page.route(/\/vertesia\/api\/v1\/pending-asks(\?|$)/, async (route) => {
      const response = await fetchRouted(route);
      if (!response) return;
      const body = (await response.json()) as { asks: Array<{ askId: string }> };
      for (const ask of body.asks) if (ask.askId === vertesiaDemoIds.refund) ask.askId = '..';
      await route.fulfill({ response, json: body }).catch(() => {});
    });
    const vertesia = requestsTo(page, /\/vertesia\/api\//);
    await page.goto('questions');
    const dots = row(page, 'vertesia:..');
    await expect(dots).toBeVisible();
    await dots.getByRole('link').click();
    const question = drawer(page);
    await expect(question.getByTestId('question-text')).toContainText(
      'Customer #4821 asks for a refund',
    );
    await expect(question.getByText(/cannot be sent to the server in a web address/)).toBeVisible();
    await expect(
      question.getByRole('button', { name: 'Answer', exact: true }).and(page.locator(':enabled')),
    ).toHaveCount(0);
    expect(vertesia.filter((path) => !/\/pending-asks(\?|$)/.test(path))).toEqual([]);
  });

  test('a Bilby conversation with the id ".." leaves the other Bilby questions in the list', async ({
    page,
  }) => {
    await page.route(/\/bilby\/api\/v1\/conversations(\?|$)/, async (route) => {
      const response = await fetchRouted(route);
      if (!response) return;
      const body = (await response.json()) as { conversations: Array<Record<string, unknown>> };
      const first = body.conversations[0];
      if (first) body.conversations.push({ ...first, id: '..', title: 'Dots' });
      await route.fulfill({ response, json: body }).catch(() => {});
    });
    const bilby = requestsTo(page, /\/bilby\/api\//);
    await page.goto('questions');
    await expect(
      row(page, `bilby:${bilbyDemoIds.naming}:${bilbyDemoIds.namingCall}`),
    ).toBeVisible();
    await expect(page.getByText(/Bilby is unavailable|Bilby could not be read/)).toHaveCount(0);
    const unreadable = page.getByTestId('unreadable-records');
    await expect(unreadable).toContainText('..');
    await expect(unreadable).toContainText('cannot be put in a web address');
    // Never the API root that `conversations/..` would have been.
    expect(bilby.filter((path) => !/\/conversations(\/[^./][^/?]*)?(\?|$)/.test(path))).toEqual([]);
  });
});

const HUGE = '0b9c2f3e-7d41-4a8e-9f20-5c6d7e8f9a01';

test('a 1 MB Bilby question opens showing a slice of each of its parts', async ({
  page,
  request,
  mock,
}) => {
  test.slow();
  const big = (what: string) => `${what} `.repeat(150_000).slice(0, 1_000_000);
  await control(request, mock.tenant, 'bilby', 'conversations', {
    title: 'Huge',
    id: HUGE,
    pending: [
      {
        toolCallId: 'toolu_huge',
        questions: [
          {
            question: big('question'),
            header: big('header'),
            multiSelect: false,
            options: [
              { label: big('alpha'), description: big('first') },
              { label: 'Beta', description: big('second') },
            ],
          },
        ],
      },
    ],
  });
  await page.goto(`questions/bilby:${HUGE}:toolu_huge`);
  const question = drawer(page);
  await expect(question.getByRole('button', { name: /Show the whole text/ })).toBeVisible();
  await expect(question.getByRole('radio', { name: /^Beta/ })).toBeVisible();
  const shown = await question.evaluate((element) => element.textContent?.length ?? 0);
  // A slice of the question (20,000 characters) and of each label and description.
  expect(shown).toBeLessThan(40_000);
});

test('a direction override is shown for what it is: the list, the question, its arguments, the filters', async ({
  page,
  mock,
}) => {
  const { id } = await mock.ask({
    question: 'Open the attachment invoice\u202Efdp.exe?',
    args: { attachment: 'invoice\u202Efdp.exe' },
    tags: ['urgent\u202Etxt.exe'],
    user_id: '\u202Emoc.elpmaxe@ecila',
  });
  await page.goto('questions');
  await expect(row(page, id)).toContainText('invoice⟨RLO⟩fdp.exe');
  // The filters' options: what a reviewer picks a tag or a user by.
  await expect(
    page.getByRole('combobox', { name: 'Tag' }).getByRole('option', { name: 'urgent⟨RLO⟩txt.exe' }),
  ).toHaveCount(1);
  await expect(
    page
      .getByRole('combobox', { name: 'User' })
      .getByRole('option', { name: '⟨RLO⟩moc.elpmaxe@ecila' }),
  ).toHaveCount(1);
  await row(page, id).getByRole('link').click();
  const question = drawer(page);
  await expect(question.getByTestId('question-text')).toHaveText(
    'Open the attachment invoice⟨RLO⟩fdp.exe?',
  );
  await expect(question.getByLabel('Arguments')).toContainText('"invoice⟨RLO⟩fdp.exe"');
  await expect(question.getByLabel('Arguments')).not.toContainText('\u202E');
});

test('a reviewer name with a direction override, kept in the trail from before, is shown for what it is', async ({
  page,
}) => {
  await page.route(/\/portal-api\/activity(\?|$)/, async (route) => {
    const response = await fetchRouted(route);
    if (!response) return;
    const entry = {
      id: 1,
      at: '2026-12-01T10:00:00.000Z',
      requestId: 'r1',
      reviewer: '\u202Emoc.elpmaxe@ecila',
      reviewerName: null,
      selfNamed: true,
      sourceId: 'reflexio',
      sourceKind: 'reflexio',
      questionId: 'q\u202E1',
      action: 'answer',
      answer: 'yes\u202Eon',
      answerMode: 'full',
      status: 200,
      detail: null,
    };
    await route.fulfill({ response, json: { entries: [entry], nextCursor: null } }).catch(() => {});
  });
  await page.goto('activity');
  const table = page.getByRole('table', { name: 'Activity, newest first' });
  const cells = table.getByRole('row').nth(1).getByRole('cell');
  await expect(cells.nth(1)).toHaveText('⟨RLO⟩moc.elpmaxe@ecila (self-named)');
  // The question cell names what it asked (not seen here: an entry from before the watcher) and its id.
  await expect(cells.nth(4)).toHaveText('(question text not seen)q⟨RLO⟩1');
  await expect(cells.nth(4)).not.toContainText('\u202E');
  await expect(cells.nth(6)).toHaveText('yes⟨RLO⟩on');
});
