import { describe, expect, it } from 'vitest';
import { createBilbyMock } from './bilby/app';
import { createManualClock } from './clock';
import { caller } from './source-test-support';
import { createVertesiaMock } from './vertesia/app';

const START = Date.parse('2026-11-30T09:00:00.000Z');

// The clock and fault control routes both source mocks share (mountClockAndFaults), each answering
// a bad body with its own system's error body.
describe.each([
  {
    system: 'Vertesia',
    create: () => createVertesiaMock({ clock: createManualClock(START), seed: 'empty' }),
    errorBody: { error: 'Bad Request', status: 400, message: expect.any(String) },
  },
  {
    system: 'Bilby',
    create: () => createBilbyMock({ clock: createManualClock(START), seed: 'empty' }),
    errorBody: { error: expect.any(String) },
  },
])('$system mock: clock and faults control routes', ({ create, errorBody }) => {
  it('moves the tenant’s clock, and says so', async () => {
    const call = caller(create().app);
    const moved = await call('POST', '/__mock/clock', { advanceMs: 90_000 });
    expect(moved.body).toEqual({ nowMs: START + 90_000, clockOffsetMs: 90_000 });
    const other = await call('POST', '/__mock/clock', { advanceMs: 1 }, { 'x-mock-tenant': 'b' });
    expect(other.body).toEqual({ nowMs: START + 1, clockOffsetMs: 1 });
    const state = await call<{ clockOffsetMs: number }>('GET', '/__mock/state');
    expect(state.body.clockOffsetMs).toBe(90_000);
  });

  it('queues faults and clears them', async () => {
    const call = caller(create().app);
    const added = await call('POST', '/__mock/faults', { kind: 'status', status: 503, count: 2 });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ fault: { kind: 'status', status: 503 } });
    await call('POST', '/__mock/faults', { kind: 'html' });
    expect((await call('DELETE', '/__mock/faults')).body).toEqual({ cleared: 2 });
    expect((await call('DELETE', '/__mock/faults')).body).toEqual({ cleared: 0 });
  });

  it('answers a bad body with the system’s own error body', async () => {
    const call = caller(create().app);
    for (const [path, body] of [
      ['/__mock/clock', { advanceMs: 'soon' }],
      ['/__mock/clock', '{not json'],
      ['/__mock/faults', { kind: 'earthquake' }],
    ] as const) {
      const reply = await call('POST', path, body);
      expect(reply.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(reply.body).toEqual(errorBody);
    }
  });
});
