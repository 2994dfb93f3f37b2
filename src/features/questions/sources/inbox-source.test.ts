import { createMockBackend } from '@mock/app';
import { createBilbyMock } from '@mock/bilby/app';
import { BILBY_ORGANIZATION_ID, bilbyDemoIds } from '@mock/bilby/seed';
import { createManualClock } from '@mock/clock';
import { createVertesiaMock } from '@mock/vertesia/app';
import { vertesiaDemoIds } from '@mock/vertesia/seed';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QuestionList, QuestionOrigin } from '../api/schemas';
import { bilbyCapabilities } from './bilby/capabilities';
import { createInboxSource } from './inbox-source';
import { createReflexioClient, createReflexioSource } from './reflexio/client';
import { createBilbySource, createVertesiaSource } from './system-sources';
import { mountedFetch } from './test-support';
import { vertesiaCapabilities } from './vertesia/capabilities';

const NOW = Date.parse('2026-11-30T12:00:00.000Z');
const ORIGIN = 'http://localhost:3000';
const reflexio: QuestionOrigin = { id: 'reflexio', kind: 'reflexio', label: 'Reflexio' };
const vertesia: QuestionOrigin = { id: 'vertesia', kind: 'vertesia', label: 'Vertesia' };
const bilby: QuestionOrigin = { id: 'bilby', kind: 'bilby', label: 'Bilby' };

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

function createMocks() {
  const clock = createManualClock(NOW);
  const mocks = {
    reflexio: createMockBackend({ clock, latencyMs: 0, simulatorIntervalMs: 0 }),
    vertesia: createVertesiaMock({ clock, latencyMs: 0 }),
    bilby: createBilbyMock({ clock, latencyMs: 0, runAfterAnswerMs: 0 }),
  };
  for (const mock of Object.values(mocks)) closers.push(mock.close);
  return mocks;
}

/** One inbox over the three mocks (new ones, or `mocks`: another browser's inbox over the same). */
function setup(mocks = createMocks()) {
  let browserNow = NOW;
  const fetchImpl = mountedFetch(mocks.reflexio.app, '');
  const client = createReflexioClient({ baseUrl: new URL(`${ORIGIN}/api/`), fetchImpl });
  const source = createInboxSource([
    { origin: reflexio, source: createReflexioSource(client, reflexio) },
    {
      origin: vertesia,
      source: createVertesiaSource(
        vertesia,
        { apiBaseUrl: `${ORIGIN}/vertesia/api/v1` },
        mountedFetch(mocks.vertesia.app, '/vertesia'),
      ),
    },
    {
      origin: bilby,
      source: createBilbySource(
        bilby,
        { apiBaseUrl: `${ORIGIN}/bilby/api/v1`, organizationId: BILBY_ORGANIZATION_ID },
        mountedFetch(mocks.bilby.app, '/bilby'),
        () => browserNow,
      ),
    },
  ]);
  const advanceBrowser = (ms: number) => {
    browserNow += ms;
  };
  const fault = (app: { request: (path: string, init: RequestInit) => unknown }, spec: object) =>
    app.request('/__mock/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(spec),
    });
  return { source, mocks, fault, advanceBrowser };
}

describe('one inbox across Reflexio, Vertesia and Bilby', () => {
  it('lists every source’s questions, each with its origin; Reflexio ids stay as they are', async () => {
    const { source } = setup();
    const list = await source.list({ status: 'pending', limit: 500 });
    expect(list.failures).toEqual([]);
    const kinds = new Set(list.questions.map((question) => question.source.kind));
    expect(kinds).toEqual(new Set(['reflexio', 'vertesia', 'bilby']));
    for (const question of list.questions) {
      expect(question.status).toBe('pending');
      if (question.source.kind === 'reflexio') expect(question.id).not.toContain(':');
      else expect(question.id.startsWith(`${question.source.id}:`)).toBe(true);
    }
    expect(list.questions.map((question) => question.id)).toContain(
      `vertesia:${vertesiaDemoIds.twoQuestions}`,
    );
    expect(list.questions.map((question) => question.id)).toContain(
      `bilby:${bilbyDemoIds.database}:${bilbyDemoIds.databaseCall}`,
    );
  });

  it('opens a question of each source by its id', async () => {
    const { source } = setup();
    const ask = await source.get(`vertesia:${vertesiaDemoIds.twoQuestions}`);
    expect(ask.source).toEqual(vertesia);
    expect(ask.questionText.split('\n')).toHaveLength(2);
    const call = await source.get(`bilby:${bilbyDemoIds.database}:${bilbyDemoIds.databaseCall}`);
    expect(call).toMatchObject({ source: bilby, expiresAt: null, status: 'pending' });
    const first = (await source.list({ status: 'pending', limit: 500 })).questions.find(
      (question) => question.source.kind === 'reflexio',
    );
    expect((await source.get(first?.id ?? '')).id).toBe(first?.id);
  });

  it('one source failing is named while the others stay; then its last list is shown, marked stale', async () => {
    const { source, mocks, fault } = setup();
    await fault(mocks.vertesia.app, { kind: 'status', status: 503, count: 1 });
    const first = await source.list({ status: 'pending', limit: 500 });
    expect(first.failures).toEqual([
      { source: vertesia, message: 'Vertesia is unavailable (HTTP 503)', stale: false },
    ]);
    expect(first.questions.some((question) => question.source.kind === 'vertesia')).toBe(false);
    expect(first.questions.some((question) => question.source.kind === 'bilby')).toBe(true);

    const second = await source.list({ status: 'pending', limit: 500 });
    expect(second.failures).toEqual([]);
    await fault(mocks.bilby.app, { kind: 'status', status: 502, count: 1 });
    const third = await source.list({ status: 'pending', limit: 500 });
    expect(third.failures).toEqual([
      { source: bilby, message: 'Bilby is unavailable (HTTP 502)', stale: true },
    ]);
    expect(third.questions.filter((question) => question.source.kind === 'bilby')).toEqual(
      second.questions.filter((question) => question.source.kind === 'bilby'),
    );
  });

  it('a source failing on the first refresh of a list it did not read (the server’s first screen) keeps the rows on screen', async () => {
    const server = setup();
    const shown = await server.source.list({ status: 'pending', limit: 500 });
    const bilbyRows = shown.questions.filter((question) => question.source.kind === 'bilby');
    expect(bilbyRows.length).toBeGreaterThan(0);
    // The browser's own source, which has read nothing yet, over the same systems.
    const { source, mocks, fault } = setup(server.mocks);
    await fault(mocks.bilby.app, { kind: 'status', status: 502, count: 1 });
    const refreshed = await source.list({ status: 'pending', limit: 500, shown });
    expect(refreshed.failures).toEqual([
      { source: bilby, message: 'Bilby is unavailable (HTTP 502)', stale: true },
    ]);
    expect(refreshed.questions.filter((question) => question.source.kind === 'bilby')).toEqual(
      bilbyRows,
    );
  });

  it('fails as a whole only when every source fails', async () => {
    const { source, mocks, fault } = setup();
    for (const app of [mocks.reflexio.app, mocks.vertesia.app, mocks.bilby.app]) {
      await fault(app, { kind: 'status', status: 503, count: 1 });
    }
    await expect(source.list({ status: 'pending', limit: 500 })).rejects.toMatchObject({
      status: 503,
    });
  });

  it('answers a one-question Vertesia ask and dismisses a Bilby question', async () => {
    const { source } = setup();
    const asks = (await source.list({ status: 'pending', limit: 500 })).questions.filter(
      (question) => question.source.kind === 'vertesia' && !question.questionText.includes('\n'),
    );
    const one = asks[0];
    if (!one) throw new Error('the demo has a one-question ask');
    const answered = await source.resolve(one.id, { result: { answer: 'Yes, ship it' } });
    expect(answered).toMatchObject({
      id: one.id,
      status: 'resolved',
      result: { answer: 'Yes, ship it' },
    });

    const id = `bilby:${bilbyDemoIds.naming}:${bilbyDemoIds.namingCall}`;
    const dismissed = await source.markNotApplicable(id, {});
    expect(dismissed).toMatchObject({ id, status: 'resolved' });
    // Bilby drops it from the conversation; this browser still shows what it sent.
    expect(await source.get(id)).toMatchObject({
      status: 'resolved',
      result: { answer: 'Not applicable' },
      notApplicable: true,
    });
  });

  it('refuses what a system cannot do with the reasons of its capabilities', async () => {
    const { source } = setup();
    const ask = `vertesia:${vertesiaDemoIds.twoQuestions}`;
    const call = `bilby:${bilbyDemoIds.database}:${bilbyDemoIds.databaseCall}`;
    const refused = (reason: string) => ({ kind: 'validation', message: reason });
    await expect(source.cancel(ask)).rejects.toMatchObject(
      refused(vertesiaCapabilities.cancel.reason),
    );
    await expect(source.markNotApplicable(ask, {})).rejects.toMatchObject(
      refused(vertesiaCapabilities.notApplicable.reason),
    );
    await expect(source.updateAnswer(ask, { answer: 'x' })).rejects.toMatchObject(
      refused(vertesiaCapabilities.edit.reason),
    );
    await expect(source.cancel(call)).rejects.toMatchObject(
      refused(bilbyCapabilities.cancel.reason),
    );
    expect(vertesiaCapabilities.cancel.reason).toMatch(/^Vertesia asks can only be answered/);
  });

  it('answers each question of a two-question Vertesia ask in one readable response', async () => {
    const { source, mocks } = setup();
    const id = `vertesia:${vertesiaDemoIds.twoQuestions}`;
    const ask = await source.get(id);
    expect(ask.prompts?.map((prompt) => prompt.text)).toEqual([
      'Which region should the new workspace for Acme Corp live in?',
      'Who should own the workspace: Dana Whitfield or the Acme IT team?',
    ]);
    const answered = await source.resolve(id, {
      result: { answer: 'ignored when answers are given' },
      answers: [
        { selected: [], custom: 'eu-west-1' },
        { selected: [], custom: 'Dana Whitfield' },
      ],
    });
    const response = [
      'Q: Which region should the new workspace for Acme Corp live in?\nA: eu-west-1',
      'Q: Who should own the workspace: Dana Whitfield or the Acme IT team?\nA: Dana Whitfield',
    ].join('\n\n');
    expect(answered).toMatchObject({ status: 'resolved', result: { answer: response } });
    const stored = await mocks.vertesia.app.request(
      `/api/v1/pending-asks/${vertesiaDemoIds.twoQuestions}`,
      { headers: { 'x-api-version': '20260803' } },
    );
    expect(await stored.json()).toMatchObject({ status: 'resolved', response });
    await expect(
      source.resolve(id, { result: { answer: 'x' }, answers: [{ selected: [], custom: 'one' }] }),
    ).rejects.toThrow('2 questions but 1 answers');
  });

  it('answers a Bilby call by its options, and keeps it as answered for the refresh right after', async () => {
    const { source, advanceBrowser } = setup();
    const id = `bilby:${bilbyDemoIds.database}:${bilbyDemoIds.databaseCall}`;
    const call = await source.get(id);
    expect(call.prompts?.map((prompt) => prompt.multiSelect)).toEqual([false, true]);
    const answered = await source.resolve(id, {
      result: { answer: 'preview' },
      answers: [
        { selected: ['Postgres 17'], custom: '' },
        { selected: ['PostGIS', 'pgvector'], custom: 'pg_cron' },
      ],
    });
    const summary = 'Postgres: Postgres 17; Extensions: PostGIS, pgvector, pg_cron';
    expect(answered).toMatchObject({ id, status: 'resolved', result: { answer: summary } });
    const pendingIds = async () =>
      (await source.list({ status: 'pending', limit: 500 })).questions.map((q) => q.id);
    const resolvedIds = async () =>
      (await source.list({ status: 'resolved', limit: 500 })).questions.map((q) => q.id);
    expect(await pendingIds()).not.toContain(id);
    expect(await resolvedIds()).toContain(id);
    advanceBrowser(6_000);
    expect(await resolvedIds()).not.toContain(id);
    expect(await source.get(id)).toMatchObject({ status: 'resolved', result: { answer: summary } });
  });

  it('a batch of one Bilby conversation reads it once and sends its calls in one request', async () => {
    const mock = createBilbyMock({ clock: createManualClock(NOW), latencyMs: 0 });
    closers.push(mock.close);
    const requests: string[] = [];
    const fetched = mountedFetch(mock.app, '/bilby');
    const only = createBilbySource(
      bilby,
      { apiBaseUrl: `${ORIGIN}/bilby/api/v1`, organizationId: BILBY_ORGANIZATION_ID },
      (input, init) => {
        requests.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
        return fetched(input, init);
      },
      () => NOW,
    );
    const pair = [bilbyDemoIds.twoCallsFirst, bilbyDemoIds.twoCallsSecond].map(
      (call) => `${bilbyDemoIds.twoCalls}:${call}`,
    );
    const done = await Promise.all(
      pair.map((id) => only.markNotApplicable(id, { together: pair })),
    );
    expect(done.map((q) => q.status)).toEqual(['resolved', 'resolved']);
    const path = `/bilby/api/v1/conversations/${bilbyDemoIds.twoCalls}`;
    expect(requests).toEqual([`GET ${path}`, `POST ${path}/tool-outputs`]);
  });

  it('remembers only the newest Bilby questions answered here', async () => {
    const mock = createBilbyMock({ clock: createManualClock(NOW), latencyMs: 0 });
    closers.push(mock.close);
    const only = createBilbySource(
      bilby,
      { apiBaseUrl: `${ORIGIN}/bilby/api/v1`, organizationId: BILBY_ORGANIZATION_ID },
      mountedFetch(mock.app, '/bilby'),
      () => NOW,
      1,
    );
    // A member source: ids without the inbox's source prefix.
    const database = `${bilbyDemoIds.database}:${bilbyDemoIds.databaseCall}`;
    const naming = `${bilbyDemoIds.naming}:${bilbyDemoIds.namingCall}`;
    await only.markNotApplicable(database, {});
    await only.markNotApplicable(naming, {});
    expect(await only.get(naming)).toMatchObject({ status: 'resolved' });
    await expect(only.get(database)).rejects.toMatchObject({ kind: 'not-found' });
  });

  it('a Bilby answer refused while the agent works is a "busy" error with the words for it', async () => {
    const { source } = setup();
    const id = `bilby:${bilbyDemoIds.busy}:${bilbyDemoIds.busyCall}`;
    const call = await source.get(id);
    expect(call.busy).toBe(true);
    const answers = (call.prompts ?? []).map((prompt) => ({
      selected: prompt.options.slice(0, 1).map((option) => option.label),
      custom: prompt.options.length === 0 ? 'Yes' : '',
    }));
    await expect(source.resolve(id, { result: { answer: 'x' }, answers })).rejects.toMatchObject({
      kind: 'busy',
      status: 409,
      detail: 'The agent is still working on this conversation; try again in a moment.',
    });
  });
});

describe('sources that answer at different times', () => {
  /** The three systems, Bilby's requests held until `release`, every request counted by path. */
  function gatedSetup() {
    const clock = createManualClock(NOW);
    const mocks = {
      reflexio: createMockBackend({ clock, latencyMs: 0, simulatorIntervalMs: 0 }),
      vertesia: createVertesiaMock({ clock, latencyMs: 0 }),
      bilby: createBilbyMock({ clock, latencyMs: 0, runAfterAnswerMs: 0 }),
    };
    for (const mock of Object.values(mocks)) closers.push(mock.close);
    const requests: string[] = [];
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const counted =
      (inner: typeof fetch, held = false): typeof fetch =>
      async (input, init) => {
        const url = new URL(new Request(input, init).url);
        requests.push(`${url.pathname}${url.search}`);
        if (held) await gate;
        return inner(input, init);
      };
    const client = createReflexioClient({
      baseUrl: new URL(`${ORIGIN}/api/`),
      fetchImpl: counted(mountedFetch(mocks.reflexio.app, '')),
    });
    const source = createInboxSource([
      { origin: reflexio, source: createReflexioSource(client, reflexio) },
      {
        origin: vertesia,
        source: createVertesiaSource(
          vertesia,
          { apiBaseUrl: `${ORIGIN}/vertesia/api/v1` },
          counted(mountedFetch(mocks.vertesia.app, '/vertesia')),
        ),
      },
      {
        origin: bilby,
        source: createBilbySource(
          bilby,
          { apiBaseUrl: `${ORIGIN}/bilby/api/v1`, organizationId: BILBY_ORGANIZATION_ID },
          counted(mountedFetch(mocks.bilby.app, '/bilby'), true),
          () => NOW,
        ),
      },
    ]);
    return { source, requests, release: () => release() };
  }

  it('hands out the others’ rows while one source is still loading, naming it', async () => {
    const { source, release } = gatedSetup();
    const partials: QuestionList[] = [];
    const done = source.list({
      status: 'pending',
      limit: 500,
      onPartial: (list) => partials.push(list),
    });
    await vi.waitFor(() => expect(partials).toHaveLength(2));
    const last = partials.at(-1) as QuestionList;
    expect(last.loading?.map((loading) => loading.source)).toEqual([bilby]);
    const kinds = new Set(last.questions.map((question) => question.source.kind));
    expect(kinds).toEqual(new Set(['reflexio', 'vertesia']));
    release();
    const list = await done;
    expect(list.loading).toBeUndefined();
    expect(list.questions.some((question) => question.source.kind === 'bilby')).toBe(true);
    expect(partials).toHaveLength(2);
  });

  it('a refresh keeps the rows on screen: no partial lists once a list has loaded', async () => {
    const { source, release } = gatedSetup();
    release();
    await source.list({ status: 'pending', limit: 500 });
    const partials: QuestionList[] = [];
    await source.list({ status: 'pending', limit: 500, onPartial: (list) => partials.push(list) });
    expect(partials).toEqual([]);
  });

  it('the view’s list and the unfiltered one share each Vertesia and Bilby read on a first load', async () => {
    const { source, requests, release } = gatedSetup();
    const pending = source.list({ status: 'pending', limit: 500 });
    const all = source.list({ limit: 500 });
    release();
    const [pendingList, allList] = await Promise.all([pending, all]);
    expect(allList.questions.length).toBeGreaterThan(pendingList.questions.length);
    const lists = (prefix: string) => requests.filter((path) => path.startsWith(prefix));
    expect(lists('/vertesia/')).toHaveLength(1);
    // Bilby: its conversations' page, then each conversation, read once.
    const bilbyReads = lists('/bilby/');
    expect(new Set(bilbyReads).size).toBe(bilbyReads.length);

    // After an answer, a list is read again.
    const ask = pendingList.questions.find((question) => question.source.kind === 'vertesia');
    await source.resolve(ask?.id ?? '', { result: { answer: 'yes' } });
    const before = lists('/vertesia/').length;
    await source.list({ status: 'pending', limit: 500 });
    expect(lists('/vertesia/').length).toBeGreaterThan(before);
  });
});

describe('a system that keeps failing', () => {
  it('does not make every refresh paint part by part', async () => {
    const { source, mocks, fault } = setup();
    await fault(mocks.bilby.app, { kind: 'status', status: 503, count: 2 });
    const partials: QuestionList[] = [];
    const onPartial = (list: QuestionList) => partials.push(list);
    await source.list({ status: 'pending', limit: 500, onPartial });
    const first = partials.length;
    expect(first).toBeGreaterThan(0);
    const again = await source.list({ status: 'pending', limit: 500, onPartial });
    expect(partials).toHaveLength(first);
    expect(again.failures?.map((failure) => failure.source)).toEqual([bilby]);
  });
});
