// Quick answers on a notification (issue 38): a click on one sends it through the portal like any
// other answer: the reviewer's identity, an audit trail entry, and no answer over a colleague's.
// The message is built by the server's own code (buildNotice, pushPayload) and delivered to the
// portal's real worker (e2e/push-worker.ts); the answer reaches the real mock through the portal
// server, from the open inbox tab or, with none open, from the worker itself.
import { type APIRequestContext, request as playwrightRequest } from '@playwright/test';
import { buildNotice } from '../server/notify/message.ts';
import { pushPayload } from '../server/notify/web-push.ts';
import { drawer, expect, type MockControl, test } from './fixtures';
import { openPushProfile, type PushProfile } from './push-worker';

const REVIEWER = 'Ana Quick';
const COLLEAGUE = 'Bo Colleague';

async function askYesNo(mock: MockControl, question: string) {
  await mock.reset('empty');
  return mock.ask({ question, answer_format: 'yes/no', expires_in_seconds: 600 });
}

function payloadFor(asked: { id: string; question_text: string }, id = 1) {
  return pushPayload(
    buildNotice({
      id,
      occasion: 'new',
      route: 'devices',
      receiver: 'devices',
      questions: [
        {
          sourceId: 'reflexio',
          questionId: asked.id,
          kind: 'reflexio',
          asked: asked.question_text,
          agent: 'deploy-agent',
          user: null,
          tool: null,
          tags: [],
          expiresAt: new Date(Date.now() + 630_000).toISOString(),
          open: true,
          claimed: false,
          choices: ['Yes', 'No'],
        },
      ],
      systemNames: new Map([['reflexio', 'Reflexio']]),
      publicUrl: null,
      now: Date.now(),
    }),
  );
}

/** The reviewer's push profile, named in the browser as the portal's "You are …" names them. */
function reviewerProfile(baseURL: string, mock: MockControl) {
  return openPushProfile(baseURL, { tenant: mock.tenant, reviewer: REVIEWER });
}

/** The trail's accepted entries for a question, as the portal server's own API lists them. */
async function trail(request: APIRequestContext, id: string) {
  const response = await request.get(`portal-api/activity?question=${encodeURIComponent(id)}`);
  expect(response.ok()).toBe(true);
  const page = (await response.json()) as {
    entries: { reviewer: string; action: string; answer: string | null; status: number | null }[];
  };
  return page.entries.map(({ reviewer, action, answer, status }) => ({
    reviewer,
    action,
    answer,
    status,
  }));
}

async function answerShown(push: PushProfile, payload: string) {
  await push.deliver(payload);
  await expect
    .poll(async () => (await push.shown()).map((n) => n.actions))
    .toEqual([['Yes', 'No']]);
}

test('with the inbox open, a quick answer on the notification is sent by the tab, as the reviewer, into the trail', async ({
  mock,
  baseURL,
}) => {
  if (!baseURL) throw new Error('baseURL is not set');
  const asked = await askYesNo(mock, 'E2E: ship the release to production now?');
  const push = await reviewerProfile(baseURL, mock);
  try {
    await answerShown(push, payloadFor(asked));
    await push.click('answer:0');
    await expect
      .poll(push.shown)
      .toEqual([{ title: 'Answered: Yes', body: 'Sent through the portal.', actions: [] }]);
    expect(await mock.find(asked.id)).toMatchObject({
      status: 'resolved',
      result: { answer: 'Yes' },
    });
    expect(await trail(push.page.request, asked.id)).toEqual([
      { reviewer: REVIEWER, action: 'answer', answer: 'Yes', status: 200 },
    ]);
    // The tab kept its place; its list shows the question answered.
    await expect(push.page).toHaveURL(/\/questions$/);
    await push.page.goto(`questions/${asked.id}`);
    await expect(drawer(push.page)).toContainText('Yes');
  } finally {
    await push.close();
  }
});

test('with no inbox tab open, the worker sends the quick answer through the portal itself', async ({
  mock,
  baseURL,
}) => {
  if (!baseURL) throw new Error('baseURL is not set');
  const asked = await askYesNo(mock, 'E2E: roll back the failed migration?');
  const push = await reviewerProfile(baseURL, mock);
  try {
    const request = push.browser.request;
    await push.page.close();
    await answerShown(push, payloadFor(asked));
    await push.click('answer:1');
    await expect
      .poll(push.shown)
      .toEqual([{ title: 'Answered: No', body: 'Sent through the portal.', actions: [] }]);
    expect(await mock.find(asked.id)).toMatchObject({
      status: 'resolved',
      result: { answer: 'No' },
    });
    expect(await trail(request, asked.id)).toEqual([
      { reviewer: REVIEWER, action: 'answer', answer: 'No', status: 200 },
    ]);
    // No window was opened for it.
    expect(push.browser.pages().map((p) => p.url())).toEqual(['about:blank']);
  } finally {
    await push.close();
  }
});

test('a question a colleague answered meanwhile is not answered over, tab open or not: the notification names them', async ({
  mock,
  baseURL,
}) => {
  if (!baseURL) throw new Error('baseURL is not set');
  const asked = await askYesNo(mock, 'E2E: delete the staging database?');
  const push = await reviewerProfile(baseURL, mock);
  const colleague = await playwrightRequest.newContext({
    baseURL,
    extraHTTPHeaders: {
      cookie: `mock_tenant=${mock.tenant}; qi_reviewer=${encodeURIComponent(COLLEAGUE)}`,
    },
  });
  try {
    await answerShown(push, payloadFor(asked, 1));
    // The colleague answers through the portal before the reviewer clicks.
    const answered = await colleague.post(
      `api/pending_tool_calls/${encodeURIComponent(asked.id)}/resolve`,
      { data: { result: { answer: 'No' } } },
    );
    expect(answered.status()).toBe(200);
    await push.click('answer:0');
    const refused = {
      title: `Already answered by ${COLLEAGUE}`,
      body: 'Your answer “Yes” was not sent.',
      actions: ['Open'],
    };
    await expect.poll(push.shown).toEqual([refused]);

    // Again with no tab open: the worker's own check refuses it as well.
    const request = push.browser.request;
    await push.page.close();
    await answerShown(push, payloadFor(asked, 1));
    await push.click('answer:0');
    await expect.poll(push.shown).toEqual([refused]);

    expect(await mock.find(asked.id)).toMatchObject({
      status: 'resolved',
      result: { answer: 'No' },
    });
    expect(await trail(request, asked.id)).toEqual([
      { reviewer: COLLEAGUE, action: 'answer', answer: 'No', status: 200 },
    ]);
  } finally {
    await colleague.dispose();
    await push.close();
  }
});

test('a quick answer the notification could not send opens the question with it in the box, unsent', async ({
  page,
  mock,
}) => {
  const asked = await askYesNo(mock, 'E2E: restart the payment workers?');
  const box = drawer(page).getByRole('textbox', { name: 'Answer' });
  // Only one of the question's own choices is put there.
  await page.goto(`questions/${asked.id}?answer=Maybe`);
  await expect(page).toHaveURL(new RegExp(`/questions/${asked.id}$`));
  await expect(box).toHaveValue('');
  await page.goto(`questions/${asked.id}?answer=No`);
  await expect(box).toHaveValue('No');
  await expect(page).toHaveURL(new RegExp(`/questions/${asked.id}$`));
  expect(await mock.find(asked.id)).toMatchObject({ status: 'pending' });
});
