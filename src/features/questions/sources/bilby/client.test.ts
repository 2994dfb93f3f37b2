import { createBilbyMock } from '@mock/bilby/app';
import { BILBY_ORGANIZATION_ID, BUSY_DEMO_MS, bilbyDemoIds as ids } from '@mock/bilby/seed';
import { createManualClock } from '@mock/clock';
import { ApiError } from '@/lib/api-client';
import { mountedFetch } from '../test-support';
import type { SourceQuestion } from '../types';
import { BUSY_MESSAGE, createBilbyClient } from './client';
import { bilbyNativeId } from './map';

const NOW = Date.parse('2026-11-30T12:00:00.000Z');
const ROOT = 'http://localhost:3000/bilby/api/v1/';
const KEY = 'pulse_key';

function setup(options: Parameters<typeof createBilbyMock>[0] = {}) {
  const clock = createManualClock(NOW);
  const mock = createBilbyMock({ clock, apiKey: KEY, runAfterAnswerMs: 0, ...options });
  const fetchImpl = mountedFetch(mock.app, '/bilby');
  const requests: string[] = [];
  const counting: typeof fetch = (input, init) => {
    requests.push(`${init?.method ?? 'GET'} ${String(input)}`);
    return fetchImpl(input, init);
  };
  const control = (path: string, body?: unknown) =>
    mock.app.request(`/__mock/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
  const config = {
    apiBaseUrl: ROOT,
    organizationId: BILBY_ORGANIZATION_ID,
    headers: { Authorization: `Bearer ${KEY}` },
  };
  const client = createBilbyClient({ sourceId: 'bilby', config, fetchImpl: counting });
  return { clock, mock, client, control, requests, fetchImpl, config };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

function find(questions: SourceQuestion[], conversationId: string, toolCallId: string) {
  const question = questions.find((q) => q.nativeId === bilbyNativeId(conversationId, toolCallId));
  if (!question) throw new Error(`no question ${toolCallId}`);
  return question;
}

describe('Bilby adapter against the mock', () => {
  it('follows every page, reads only conversations with questions, sends organizationId each time', async () => {
    const { client, requests } = setup();
    const list = await client.list();
    expect(list.unreadable).toEqual([]);
    expect(list.truncated).toBe(false);
    const pages = requests.filter((r) => /\/conversations\?/.test(r));
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(requests.every((r) => r.includes(`organizationId=${BILBY_ORGANIZATION_ID}`))).toBe(true);
    // Six conversations hold questions; the seven quiet ones are never opened.
    const details = requests.filter((r) => /\/conversations\/[^/?]+\?/.test(r));
    expect(details).toHaveLength(6);
    expect(list.questions).toHaveLength(7);
    const database = find(list.questions, ids.database, ids.databaseCall);
    expect(database).toMatchObject({
      id: `bilby:${ids.database}:${ids.databaseCall}`,
      status: 'pending',
      expiresAt: null,
      tags: [],
      askerName: 'Analytics database setup',
      busy: false,
      capabilities: {
        answer: 'choices',
        notApplicable: { allowed: true },
        edit: { allowed: false },
        cancel: { allowed: false },
      },
    });
    expect(database.prompts.map((p) => [p.header, p.multiSelect, p.options.length])).toEqual([
      ['Postgres', false, 2],
      ['Extensions', true, 4],
    ]);
    expect(find(list.questions, ids.busy, ids.busyCall).busy).toBe(true);
  });

  it('a poll reads again only the conversations whose list entry changed, or whose agent was running', async () => {
    const { client, clock, control, requests } = setup();
    const reads = () => {
      const read = requests.flatMap((r) => /\/conversations\/([^/?]+)\?/.exec(r)?.[1] ?? []);
      requests.length = 0;
      return read.map(decodeURIComponent).sort();
    };
    const pages = () => requests.filter((r) => /\/conversations\?/.test(r)).length;
    const first = await client.list();
    expect(reads()).toHaveLength(6);

    // Nothing changed: the list's pages, and only the conversation whose agent is running (its
    // turn ends without a new list entry).
    const again = await client.list();
    expect(pages()).toBeGreaterThanOrEqual(3);
    expect(reads()).toEqual([ids.busy]);
    expect(again.questions).toEqual(first.questions);
    clock.advance(BUSY_DEMO_MS);
    await client.list();
    expect(reads()).toEqual([ids.busy]);
    const idle = await client.list();
    expect(reads()).toEqual([]);
    expect(find(idle.questions, ids.busy, ids.busyCall).busy).toBe(false);

    // A question asked in one conversation, another's call answered elsewhere (it leaves the list,
    // its other call too): the one whose entry changed is read, the other is gone unread.
    clock.advance(1000);
    expect(
      (
        await control(`conversations/${ids.launch}/questions`, {
          questions: [
            {
              question: 'Which day?',
              header: 'Day',
              options: [
                { label: 'Mon', description: 'Monday' },
                { label: 'Tue', description: 'Tuesday' },
              ],
              multiSelect: false,
            },
          ],
        })
      ).status,
    ).toBe(201);
    await control(`conversations/${ids.database}/tool-calls/${ids.databaseCall}/answer`);
    const changed = await client.list();
    expect(reads()).toEqual([ids.launch]);
    expect(changed.questions.filter((q) => q.nativeId.includes(ids.launch))).toHaveLength(2);
    expect(changed.questions.some((q) => q.nativeId.includes(ids.database))).toBe(false);

    // One of a conversation's two calls answered through the portal: it is read at the next list.
    await client.dismiss(find(changed.questions, ids.twoCalls, ids.twoCallsFirst));
    requests.length = 0;
    const after = await client.list();
    expect(reads()).toEqual([ids.twoCalls]);
    expect(after.questions.filter((q) => q.nativeId.includes(ids.twoCalls))).toHaveLength(1);
  });

  it('answers single- and multi-select with a summary; the call leaves the conversation', async () => {
    const { client, mock } = setup();
    const database = find((await client.list()).questions, ids.database, ids.databaseCall);
    await client.answer(database, [
      { selected: ['Postgres 17'] },
      { selected: ['pgvector', 'PostGIS'], custom: 'and pg_cron' },
    ]);
    expect((await client.conversation(ids.database)).questions).toEqual([]);
    const state = (await (await mock.app.request('/__mock/state')).json()) as {
      conversations: { id: string; answered: { output: unknown }[] }[];
    };
    const answered = state.conversations.find((c) => c.id === ids.database)?.answered;
    expect(answered?.[0]?.output).toEqual({
      status: 'answered',
      answers: [
        { question: database.prompts[0]?.text, selected: ['Postgres 17'] },
        {
          question: database.prompts[1]?.text,
          selected: ['pgvector', 'PostGIS'],
          custom: 'and pg_cron',
        },
      ],
      summary: 'Postgres: Postgres 17; Extensions: pgvector, PostGIS, and pg_cron',
    });
  });

  it('dismisses as "Not applicable"', async () => {
    const { client } = setup();
    const launch = find((await client.list()).questions, ids.launch, ids.launchCall);
    await client.dismiss(launch);
    expect((await client.conversation(ids.launch)).questions).toEqual([]);
  });

  it('409 while the agent works: code "busy" with words for the reviewer; later it goes through', async () => {
    const { client, clock } = setup();
    const busy = find((await client.list()).questions, ids.busy, ids.busyCall);
    const choices = [{ selected: ['Last year'] }];
    const error = await failure(client.answer(busy, choices));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      kind: 'busy',
      status: 409,
      code: 'busy',
    });
    expect(error.detail).toBe(BUSY_MESSAGE);
    clock.advance(BUSY_DEMO_MS);
    await client.answer(busy, choices);
  });

  describe('a conversation’s calls acted on together (a bulk action, a look-alike group)', () => {
    const both = [
      bilbyNativeId(ids.twoCalls, ids.twoCallsFirst),
      bilbyNativeId(ids.twoCalls, ids.twoCallsSecond),
    ];
    async function twoCalls(client: ReturnType<typeof setup>['client']) {
      const { questions } = await client.list();
      return [
        find(questions, ids.twoCalls, ids.twoCallsFirst),
        find(questions, ids.twoCalls, ids.twoCallsSecond),
      ] as const;
    }
    const posts = (requests: string[]) => requests.filter((r) => r.startsWith('POST'));

    it('one by one, the second is refused while the turn the first started runs', async () => {
      const { client } = setup({ runAfterAnswerMs: 3000 });
      const [first, second] = await twoCalls(client);
      await client.dismiss(first);
      expect(await failure(client.dismiss(second))).toMatchObject({ kind: 'busy' });
    });

    it('together, they go in one request once both have come, and both are taken', async () => {
      const { client, requests } = setup({ runAfterAnswerMs: 3000 });
      const [first, second] = await twoCalls(client);
      requests.length = 0;
      const sent = client.dismiss(first, both);
      // The first waits for the second.
      await Promise.resolve();
      expect(posts(requests)).toEqual([]);
      await Promise.all([sent, client.dismiss(second, both)]);
      expect(posts(requests)).toHaveLength(1);
      expect((await client.conversation(ids.twoCalls)).questions).toEqual([]);
    });

    it('one answered elsewhere meanwhile fails as not found; the other is sent without it', async () => {
      const { client, control, requests } = setup({ runAfterAnswerMs: 3000 });
      const [first, second] = await twoCalls(client);
      await control(`conversations/${ids.twoCalls}/tool-calls/${ids.twoCallsFirst}/answer`);
      requests.length = 0;
      const [a, b] = await Promise.allSettled([
        client.dismiss(first, both),
        client.dismiss(second, both),
      ]);
      expect(a).toMatchObject({ status: 'rejected', reason: { kind: 'not-found' } });
      expect(b.status).toBe('fulfilled');
      // The refused request, a read of the conversation, the second call alone.
      expect(requests.map((r) => r.split('?')[0])).toEqual([
        `POST ${ROOT}conversations/${ids.twoCalls}/tool-outputs`,
        `GET ${ROOT}conversations/${ids.twoCalls}`,
        `POST ${ROOT}conversations/${ids.twoCalls}/tool-outputs`,
      ]);
    });

    it('one that fails before sending is withdrawn: the other goes at once', async () => {
      const { client } = setup({ runAfterAnswerMs: 3000 });
      const [first] = await twoCalls(client);
      const sent = client.dismiss(first, both);
      client.withdraw(both[1] as string);
      await sent;
      expect((await client.conversation(ids.twoCalls)).questions).toHaveLength(1);
    });
  });

  it('answered elsewhere: not-found with Bilby’s words', async () => {
    const { client, control } = setup();
    const naming = find((await client.list()).questions, ids.naming, ids.namingCall);
    await control(`conversations/${ids.naming}/tool-calls/${ids.namingCall}/answer`);
    const error = await failure(client.answer(naming, [{ selected: [], custom: 'tally' }]));
    expect(error).toMatchObject({ kind: 'not-found', status: 404 });
    expect(error.detail).toMatch(/already answered/);
  });

  it('without organizationId the mock refuses, and the adapter says why', async () => {
    const { fetchImpl, config } = setup();
    const client = createBilbyClient({
      sourceId: 'bilby',
      config: { ...config, organizationId: undefined },
      fetchImpl,
    });
    const error = await failure(client.list());
    expect(error).toMatchObject({ kind: 'validation', status: 400 });
    expect(error.detail).toMatch(/organizationId is required/);
  });

  it('a refused key is auth; a 503 is unavailable with the server’s words', async () => {
    const { fetchImpl, config, control, client } = setup();
    const anonymous = createBilbyClient({
      sourceId: 'b',
      config: { ...config, headers: {} },
      fetchImpl,
    });
    expect(await failure(anonymous.list())).toMatchObject({ kind: 'auth', status: 401 });
    await control('faults', { kind: 'status', status: 503, message: 'Maintenance' });
    expect(await failure(client.list())).toMatchObject({
      kind: 'unavailable',
      detail: 'Service Unavailable: Maintenance',
    });
  });

  it('one damaged conversation of a page is reported; the others are read', async () => {
    const { client, control } = setup();
    await control('faults', { kind: 'corrupt', match: { method: 'GET', path: '/conversations' } });
    const list = await client.list();
    expect(list.unreadable).toHaveLength(1);
    expect(list.questions.length).toBeGreaterThanOrEqual(5);
  });

  it('stops after 50 pages and says the list is cut', async () => {
    const { client, control, requests } = setup({ seed: 'empty', pageSize: 1 });
    for (let i = 0; i < 52; i += 1) await control('conversations', { title: `c${i}` });
    const list = await client.list();
    expect(requests).toHaveLength(50);
    expect(list.truncated).toBe(true);
  });
});
