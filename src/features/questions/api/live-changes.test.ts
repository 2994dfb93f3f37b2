// The live stream's changes applied to cached lists, with records as the systems (their real
// mocks) send them: the portal server's copy passes them on as they are.
import { createMockBackend } from '@mock/app';
import { createBilbyMock } from '@mock/bilby/app';
import { BILBY_ORGANIZATION_ID, bilbyDemoIds } from '@mock/bilby/seed';
import { createVertesiaMock, VERTESIA_API_VERSION } from '@mock/vertesia/app';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { createInboxSource } from '../sources/inbox-source';
import { createReflexioClient, createReflexioSource } from '../sources/reflexio/client';
import { createBilbySource, createVertesiaSource } from '../sources/system-sources';
import { mountedFetch } from '../sources/test-support';
import { applyListsChange, readListsChange } from './live-changes';
import { questionKeys } from './queries';
import type { QuestionList, QuestionOrigin } from './schemas';

const ORIGIN = 'http://localhost:3000';
const reflexio: QuestionOrigin = { id: 'reflexio', kind: 'reflexio', label: 'Reflexio' };
const vertesia: QuestionOrigin = { id: 'vertesia', kind: 'vertesia', label: 'Vertesia' };
const bilby: QuestionOrigin = { id: 'bilby', kind: 'bilby', label: 'Bilby' };

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

function setup() {
  const mocks = {
    reflexio: createMockBackend({ latencyMs: 0, simulatorIntervalMs: 0 }),
    vertesia: createVertesiaMock({ latencyMs: 0, simulatorIntervalMs: 0 }),
    bilby: createBilbyMock({ latencyMs: 0, runAfterAnswerMs: 0, simulatorIntervalMs: 0 }),
  };
  for (const mock of Object.values(mocks)) closers.push(mock.close);
  const client = createReflexioClient({
    baseUrl: new URL(`${ORIGIN}/api/`),
    fetchImpl: mountedFetch(mocks.reflexio.app, ''),
  });
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
      ),
    },
  ]);
  const queryClient = new QueryClient();
  const keys = {
    all: questionKeys.list({ status: 'all', limit: 500 }),
    pending: questionKeys.list({ status: 'pending', limit: 500 }),
  };
  const load = async (versions: Record<string, number>) => {
    for (const [status, key] of [
      [undefined, keys.all],
      ['pending', keys.pending],
    ] as const) {
      const list = await source.list({ status, limit: 500 });
      queryClient.setQueryData(key, { ...list, versions });
    }
  };
  const list = (key: readonly unknown[]) => queryClient.getQueryData<QuestionList>(key);
  const call = async (
    app: { fetch: (request: Request) => Response | Promise<Response> },
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const response = await app.fetch(
      new Request(`http://mock${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    return response.json();
  };
  return { mocks, source, queryClient, keys, load, list, call };
}

describe('the live stream’s changes', () => {
  it('bring a new question into every list, and move an answered one out of the pending list', async () => {
    const s = setup();
    await s.load({ reflexio: 4, vertesia: 1, bilby: 1 });
    const { call } = await s.call(s.mocks.reflexio.app, 'POST', '/__mock/questions', {
      question: 'Arrived while the page was open?',
    });
    const record = await s.call(s.mocks.reflexio.app, 'GET', `/api/pending_tool_calls/${call.id}`);
    await applyListsChange(s.queryClient, s.source, {
      source: 'reflexio',
      version: 5,
      units: [{ id: call.id, record }],
      removed: [],
    });
    for (const key of [s.keys.all, s.keys.pending]) {
      const found = s.list(key)?.questions.find((q) => q.id === call.id);
      expect(found?.questionText).toBe('Arrived while the page was open?');
      expect(s.list(key)?.versions).toEqual({ reflexio: 5, vertesia: 1, bilby: 1 });
    }

    await s.call(s.mocks.reflexio.app, 'POST', `/__mock/questions/${call.id}/resolve`, {
      answer: 'yes',
    });
    const answered = await s.call(
      s.mocks.reflexio.app,
      'GET',
      `/api/pending_tool_calls/${call.id}`,
    );
    await applyListsChange(s.queryClient, s.source, {
      source: 'reflexio',
      version: 6,
      units: [{ id: call.id, record: answered }],
    });
    expect(s.list(s.keys.pending)?.questions.some((q) => q.id === call.id)).toBe(false);
    expect(s.list(s.keys.all)?.questions.find((q) => q.id === call.id)?.status).toBe('resolved');
  });

  it('take a dismissed Bilby question out with its conversation’s new record, and a Vertesia ask’s answer in', async () => {
    const s = setup();
    await s.load({ reflexio: 1, vertesia: 1, bilby: 1 });
    const id = `bilby:${bilbyDemoIds.database}:${bilbyDemoIds.databaseCall}`;
    expect(s.list(s.keys.pending)?.questions.some((q) => q.id === id)).toBe(true);
    const query = `?organizationId=${BILBY_ORGANIZATION_ID}`;
    const before = await s.call(
      s.mocks.bilby.app,
      'GET',
      `/api/v1/conversations/${bilbyDemoIds.database}${query}`,
    );
    expect(before.pendingQuestions).toHaveLength(1);
    await s.call(
      s.mocks.bilby.app,
      'POST',
      `/api/v1/conversations/${bilbyDemoIds.database}/tool-outputs${query}`,
      {
        outputs: [
          {
            toolCallId: bilbyDemoIds.databaseCall,
            output: { status: 'dismissed', answers: [], summary: 'Not applicable' },
          },
        ],
      },
    );
    const after = await s.call(
      s.mocks.bilby.app,
      'GET',
      `/api/v1/conversations/${bilbyDemoIds.database}${query}`,
    );
    await applyListsChange(s.queryClient, s.source, {
      source: 'bilby',
      version: 2,
      units: [{ id: bilbyDemoIds.database, record: after }],
    });
    expect(s.list(s.keys.all)?.questions.some((q) => q.id === id)).toBe(false);
    // Other systems' questions are untouched.
    expect(s.list(s.keys.all)?.questions.some((q) => q.source.kind === 'reflexio')).toBe(true);

    const asks = (await s.call(s.mocks.vertesia.app, 'GET', '/api/v1/pending-asks', undefined, {
      'x-api-version': VERTESIA_API_VERSION,
    })) as { asks: { askId: string; status: string }[] };
    const ask = asks.asks.find((a) => a.status === 'pending');
    await s.call(s.mocks.vertesia.app, 'POST', `/__mock/asks/${ask?.askId}/resolve`, {
      response: 'Go ahead',
    });
    const resolved = await s.call(
      s.mocks.vertesia.app,
      'GET',
      `/api/v1/pending-asks/${ask?.askId}`,
      undefined,
      { 'x-api-version': VERTESIA_API_VERSION },
    );
    await applyListsChange(s.queryClient, s.source, {
      source: 'vertesia',
      version: 2,
      units: [{ id: ask?.askId ?? '', record: resolved }],
    });
    const shown = s.list(s.keys.all)?.questions.find((q) => q.id === `vertesia:${ask?.askId}`);
    expect(shown?.status).toBe('resolved');
    expect(shown?.result).toEqual({ answer: 'Go ahead' });
  });

  it('drop a record the system no longer lists', async () => {
    const s = setup();
    await s.load({ reflexio: 1, vertesia: 1, bilby: 1 });
    const gone = s.list(s.keys.pending)?.questions.find((q) => q.source.kind === 'reflexio');
    await applyListsChange(s.queryClient, s.source, {
      source: 'reflexio',
      version: 2,
      units: [],
      removed: [gone?.id ?? ''],
    });
    expect(s.list(s.keys.all)?.questions.some((q) => q.id === gone?.id)).toBe(false);
  });

  it('leave a list that already has a version alone, and read again one that missed a version', async () => {
    const s = setup();
    await s.load({ reflexio: 7, vertesia: 1, bilby: 1 });
    const before = s.list(s.keys.all);
    await applyListsChange(s.queryClient, s.source, {
      source: 'reflexio',
      version: 7,
      units: [],
      removed: [before?.questions[0]?.id ?? ''],
    });
    expect(s.list(s.keys.all)).toBe(before);
    await applyListsChange(s.queryClient, s.source, {
      source: 'reflexio',
      version: 9,
      units: [],
      removed: [],
    });
    expect(s.queryClient.getQueryState(s.keys.all)?.isInvalidated).toBe(true);
    await applyListsChange(s.queryClient, s.source, { source: 'bilby', version: 2, reload: true });
    expect(s.queryClient.getQueryState(s.keys.pending)?.isInvalidated).toBe(true);
  });

  it('are read leniently from the stream', () => {
    expect(
      readListsChange('{"source":"reflexio","version":3,"units":[{"id":"a","record":{}}]}'),
    ).toEqual({ source: 'reflexio', version: 3, units: [{ id: 'a', record: {} }], removed: [] });
    expect(readListsChange('{"source":"reflexio"}')).toBeNull();
    expect(readListsChange('not json')).toBeNull();
    expect(readListsChange({})).toBeNull();
  });
});
