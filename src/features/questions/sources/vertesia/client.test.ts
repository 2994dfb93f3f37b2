import { createManualClock } from '@mock/clock';
import { createVertesiaMock } from '@mock/vertesia/app';
import { vertesiaDemoIds as ids } from '@mock/vertesia/seed';
import { ApiError } from '@/lib/api-client';
import { sendWire } from '../http';
import { mountedFetch } from '../test-support';
import { VERTESIA_ONLY_ANSWERED } from './capabilities';
import { createVertesiaClient } from './client';
import { readVertesiaError } from './wire';

const NOW = Date.parse('2026-11-30T12:00:00.000Z');
const ROOT = 'http://localhost:3000/vertesia/api/v1';
const KEY = 'vrt_key';

function setup() {
  const clock = createManualClock(NOW);
  const mock = createVertesiaMock({ clock, apiKey: KEY });
  // The portal's server mounts the mock under /vertesia; the same prefix is taken off here.
  const fetchImpl = mountedFetch(mock.app, '/vertesia');
  const control = (path: string, body?: unknown) =>
    mock.app.request(`/__mock/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
  const client = createVertesiaClient({
    sourceId: 'vertesia',
    config: { apiBaseUrl: ROOT, headers: { Authorization: `Bearer ${KEY}` } },
    fetchImpl,
  });
  return { mock, client, fetchImpl, control };
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

describe('Vertesia adapter against the mock', () => {
  it('lists the whole project: every status, mapped to the portal record', async () => {
    const { client } = setup();
    const list = await client.list();
    expect(list.unreadable).toEqual([]);
    expect(new Set(list.questions.map((q) => q.status))).toEqual(
      new Set(['pending', 'resolved', 'expired']),
    );
    const two = list.questions.find((q) => q.nativeId === ids.twoQuestions);
    expect(two).toMatchObject({
      id: `vertesia:${ids.twoQuestions}`,
      sourceKind: 'vertesia',
      agent: 'Onboarding agent',
      tags: [],
      askerName: 'Onboarding agent',
      answerText: null,
    });
    expect(two?.prompts.map((p) => p.text)).toHaveLength(2);
    expect(two?.text.split('\n')).toHaveLength(2);
    expect(two?.expiresAt).toBe((two?.createdAt ?? 0) + 24 * 3_600_000);
    expect(two?.capabilities).toMatchObject({
      answer: 'texts',
      edit: { allowed: false },
      notApplicable: { allowed: false },
      cancel: { allowed: false },
    });
    expect(two?.capabilities.cancel).toMatchObject({
      reason: expect.stringContaining(VERTESIA_ONLY_ANSWERED),
    });
    const refund = list.questions.find((q) => q.nativeId === ids.refund);
    expect(refund?.context).toContainEqual({
      label: 'Also sent by email to',
      value: 'support-leads@example.com',
    });
    const resolved = list.questions.find((q) => q.nativeId === ids.resolved);
    expect(resolved?.answerText).toBe('Yes, but remove the internal hostnames first.');
  });

  it('answers a two-question ask with one readable response, each question followed by its answer', async () => {
    const { client } = setup();
    const ask = await client.get(ids.twoQuestions);
    const resolved = await client.resolve(ask, ['eu1', 'Dana Whitfield']);
    expect(resolved.status).toBe('resolved');
    expect(resolved.answerText).toBe(
      'Q: Which region should the new workspace for Acme Corp live in?\nA: eu1\n\n' +
        'Q: Who should own the workspace: Dana Whitfield or the Acme IT team?\nA: Dana Whitfield',
    );
  });

  it('answers a one-question ask with the answer alone', async () => {
    const { client } = setup();
    const resolved = await client.resolve(await client.get(ids.contract), ['  Push back for 1×. ']);
    expect(resolved.answerText).toBe('Push back for 1×.');
  });

  it('someone else answered first: a conflict with Vertesia’s words and errorCode', async () => {
    const { client, control } = setup();
    const ask = await client.get(ids.refund);
    await control(`asks/${ids.refund}/resolve`, { response: 'Approve it.' });
    const error = await failure(client.resolve(ask, ['Refuse.']));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      kind: 'conflict',
      status: 409,
      code: 'pending_ask_already_resolved',
    });
    expect(error.detail).toMatch(/already resolved/);
  });

  it('success: false with HTTP 200 is a failure; the ask stays pending', async () => {
    const { client, control } = setup();
    await control('faults', {
      kind: 'unsuccessful',
      message: 'Run is gone',
      match: { path: '/resolve' },
    });
    const ask = await client.get(ids.contract);
    const error = await failure(client.resolve(ask, ['Accept.']));
    expect(error).toMatchObject({ kind: 'server', status: 200, code: 'unsuccessful' });
    expect(error.detail).toBe('Run is gone');
    expect((await client.get(ids.contract)).status).toBe('pending');
  });

  it('an unknown ask: not-found; a wrong API root: bad-response', async () => {
    const { client, fetchImpl } = setup();
    expect(await failure(client.get('nope'))).toMatchObject({ kind: 'not-found', status: 404 });
    const wrong = createVertesiaClient({
      sourceId: 'v',
      config: { apiBaseUrl: `${ROOT}/nowhere`, headers: { Authorization: `Bearer ${KEY}` } },
      fetchImpl,
    });
    expect(await failure(wrong.list())).toMatchObject({ kind: 'bad-response', status: 404 });
  });

  it('a refused key is auth; a 503 is unavailable with the server’s words', async () => {
    const { fetchImpl, control, client } = setup();
    const anonymous = createVertesiaClient({
      sourceId: 'v',
      config: { apiBaseUrl: ROOT },
      fetchImpl,
    });
    expect(await failure(anonymous.list())).toMatchObject({ kind: 'auth', status: 401 });
    await control('faults', { kind: 'status', status: 503, message: 'Down for maintenance' });
    expect(await failure(client.list())).toMatchObject({
      kind: 'unavailable',
      detail: 'Down for maintenance',
    });
  });

  it('a request without x-api-version is refused, and says what is missing', async () => {
    const { fetchImpl } = setup();
    const error = await failure(
      sendWire(
        { method: 'GET', url: `${ROOT}/pending-asks`, headers: { Authorization: `Bearer ${KEY}` } },
        { readError: readVertesiaError, fetchImpl },
      ),
    );
    expect(error).toMatchObject({ kind: 'validation', status: 400, code: 'missing_api_version' });
    expect(error.detail).toMatch(/x-api-version/);
  });

  it('one damaged record is reported; the rest of the list is read', async () => {
    const { client, control } = setup();
    await control('faults', { kind: 'corrupt' });
    const list = await client.list();
    expect(list.unreadable).toHaveLength(1);
    expect(list.unreadable[0]?.problems.join(' ')).toMatch(/questions|status|createdAt/);
    expect(list.questions.length).toBeGreaterThan(5);
  });

  it('a sign-in page instead of JSON is still the wrapper’s auth', async () => {
    const { client, control } = setup();
    await control('faults', { kind: 'html' });
    expect(await failure(client.list())).toMatchObject({ kind: 'auth' });
  });
});
