import { describe, expect, it } from 'vitest';
import { createBilbyMock } from './bilby/app';
import { BILBY_ORGANIZATION_ID, bilbyDemoIds } from './bilby/seed';
import { createManualClock } from './clock';
import { caller } from './source-test-support';
import { createVertesiaMock } from './vertesia/app';
import { vertesiaDemoIds } from './vertesia/seed';

// The Vertesia and Bilby mocks' snapshot and restore (the static demo keeps them in IndexedDB):
// a restored mock answers as the old one did and goes on from there; a snapshot it cannot take
// (damaged, or an older shape) is refused and the mock keeps what it had.

const START = Date.parse('2026-11-30T09:00:00.000Z');
const HOUR = 3_600_000;
const viaJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('Vertesia mock: snapshot and restore', () => {
  const HEADERS = { 'x-api-version': '20260803' };
  const API = '/api/v1/pending-asks';

  function setup(seed: 'demo' | 'empty' = 'demo') {
    const clock = createManualClock(START);
    const mock = createVertesiaMock({ clock, seed });
    return { clock, mock, call: caller(mock.app, HEADERS) };
  }

  it('a new mock restored from a JSON snapshot answers exactly as the old one, and goes on', async () => {
    const old = setup();
    await old.call('POST', `${API}/${vertesiaDemoIds.refund}/resolve`, { response: 'Approve' });
    const registered = await old.call<{ askId: string }>('POST', API, {
      runId: 'run-1',
      workflowId: 'wf-1',
      agentName: 'Support triage',
      questions: ['Asked after the seed?'],
      userChannels: [{ type: 'interactive' }],
      requestId: 'req-1',
    });
    await old.call('POST', '/__mock/clock', { advanceMs: HOUR });
    const before = await old.call('GET', '/__mock/state');

    const fresh = setup('empty');
    expect(fresh.mock.restore(viaJson(old.mock.snapshot()))).toBe(true);
    const after = await fresh.call('GET', '/__mock/state');
    expect(after.body).toEqual(before.body);

    // The state machine goes on from the restored asks, the clock offset included.
    const again = await fresh.call('POST', `${API}/${vertesiaDemoIds.refund}/resolve`, {
      response: 'Deny',
    });
    expect(again.status).toBe(409);
    const repeated = await fresh.call<{ askId: string }>('POST', API, {
      runId: 'run-1',
      workflowId: 'wf-1',
      agentName: 'Support triage',
      questions: ['Asked after the seed?'],
      userChannels: [{ type: 'interactive' }],
      requestId: 'req-1',
    });
    expect(repeated.body.askId).toBe(registered.body.askId);
    // The 15-minute ask was registered 9 minutes before START; the restored hour has passed.
    const soon = await fresh.call<{ status: string }>(
      'GET',
      `${API}/${vertesiaDemoIds.expiringSoon}`,
    );
    expect(soon.body.status).toBe('expired');
  });

  it('refuses a damaged or older snapshot and keeps its own asks', async () => {
    const { mock, call } = setup();
    const good = viaJson(mock.snapshot());
    const [firstAsk] = good.asks;
    const bad: unknown[] = [
      null,
      'state',
      {},
      { ...good, version: 0 },
      { calls: [], clockOffsetMs: 0 },
      { ...good, clockOffsetMs: 'soon' },
      { ...good, asks: [{ ...firstAsk, status: 'waiting' }] },
      { ...good, asks: [{ ...firstAsk, askId: undefined }] },
    ];
    await call('POST', `${API}/${vertesiaDemoIds.refund}/resolve`, { response: 'Approve' });
    const before = await call('GET', '/__mock/state');
    for (const saved of bad) expect(mock.restore(saved), JSON.stringify(saved)).toBe(false);
    expect((await call('GET', '/__mock/state')).body).toEqual(before.body);
  });

  it('restores into the tenant it names', async () => {
    const { mock, call } = setup();
    expect(
      mock.restore({ version: 1, clockOffsetMs: 0, asks: [], requestIds: {} }, 'elsewhere'),
    ).toBe(true);
    const other = await call('GET', API, undefined, { 'x-mock-tenant': 'elsewhere' });
    expect(other.body).toEqual({ asks: [] });
    const own = await call<{ asks: unknown[] }>('GET', API);
    expect(own.body.asks.length).toBeGreaterThan(5);
  });
});

describe('Bilby mock: snapshot and restore', () => {
  const ORG = `organizationId=${BILBY_ORGANIZATION_ID}`;
  const outputs = (id: string) => `/api/v1/conversations/${id}/tool-outputs?${ORG}`;

  function setup(seed: 'demo' | 'empty' = 'demo') {
    const clock = createManualClock(START);
    const mock = createBilbyMock({ clock, seed, runAfterAnswerMs: 3000 });
    return { clock, mock, call: caller(mock.app) };
  }

  const nameIt = (choice: string) => ({
    outputs: [
      {
        toolCallId: bilbyDemoIds.namingCall,
        output: {
          status: 'answered',
          answers: [
            {
              question:
                'What should the new billing service be called? Pick one or write your own.',
              selected: [choice],
            },
          ],
          summary: `Name: ${choice}`,
        },
      },
    ],
  });

  it('a new mock restored from a JSON snapshot answers exactly as the old one, and goes on', async () => {
    const old = setup();
    expect((await old.call('POST', outputs(bilbyDemoIds.naming), nameIt('ledger'))).status).toBe(
      202,
    );
    await old.call('POST', '/__mock/clock', { advanceMs: 1000 });
    const before = await old.call('GET', '/__mock/state');

    const fresh = setup('empty');
    expect(fresh.mock.restore(viaJson(old.mock.snapshot()))).toBe(true);
    expect((await fresh.call('GET', '/__mock/state')).body).toEqual(before.body);

    // Still running its turn (3 s after the answer, 1 s of which has passed), then idle.
    const detail = `/api/v1/conversations/${bilbyDemoIds.naming}?${ORG}`;
    expect((await fresh.call<{ status: string }>('GET', detail)).body.status).toBe('running');
    fresh.clock.advance(2000);
    expect((await fresh.call<{ status: string }>('GET', detail)).body.status).toBe('idle');
    // The answered call is gone; the busy conversation is still busy.
    expect((await fresh.call('POST', outputs(bilbyDemoIds.naming), nameIt('abacus'))).status).toBe(
      404,
    );
    const busy = await fresh.call<{ status: string }>(
      'GET',
      `/api/v1/conversations/${bilbyDemoIds.busy}?${ORG}`,
    );
    expect(busy.body.status).toBe('running');
  });

  it('refuses a damaged or older snapshot and keeps its own conversations', async () => {
    const { mock, call } = setup();
    const good = viaJson(mock.snapshot());
    const [first] = good.conversations;
    const bad: unknown[] = [
      undefined,
      [],
      { ...good, version: 2 },
      { ...good, conversations: [{ ...first, runningUntil: null }] },
      { ...good, conversations: [{ ...first, pendingQuestions: [{ toolCallId: 'x' }] }] },
      { ...good, conversations: [{ ...first, extra: true }] },
    ];
    await call('POST', outputs(bilbyDemoIds.naming), nameIt('ledger'));
    const before = await call('GET', '/__mock/state');
    for (const saved of bad) expect(mock.restore(saved), JSON.stringify(saved)).toBe(false);
    expect((await call('GET', '/__mock/state')).body).toEqual(before.body);
  });

  it('restores into the tenant it names', async () => {
    const { mock, call } = setup();
    expect(mock.restore({ version: 1, clockOffsetMs: 0, conversations: [] }, 'elsewhere')).toBe(
      true,
    );
    const other = await call('GET', `/api/v1/conversations?${ORG}`, undefined, {
      'x-mock-tenant': 'elsewhere',
    });
    expect(other.body).toEqual({ conversations: [], nextCursor: null });
  });
});
