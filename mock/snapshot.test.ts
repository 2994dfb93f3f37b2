import { describe, expect, it } from 'vitest';
import { createMockBackend } from './app';
import { createManualClock } from './clock';
import { demoIds } from './seed';
import { HOUR, harness, START } from './test-support';

const API = '/api/pending_tool_calls';

describe('snapshot and restore', () => {
  it('a new backend restored from a JSON snapshot answers exactly as the old one', async () => {
    const h = harness();
    await h.call('POST', `${API}/${demoIds.pendingYesNo}/resolve`, { result: { answer: 'yes' } });
    await h.call('POST', `${API}/${demoIds.pendingSoonest}/cancel`);
    await h.ask('Asked after the seed?', { tags: ['late'] });
    await h.control('POST', '/__mock/clock', { advanceMs: HOUR });
    const before = await h.call('GET', '/__mock/state');

    const saved = JSON.parse(JSON.stringify(h.backend.snapshot()));
    const clock = createManualClock(START);
    const restored = createMockBackend({ clock, sweepIntervalMs: 0, seed: 'empty' });
    restored.restore(saved);
    const after = await restored.app.request('/__mock/state');
    expect(await after.json()).toEqual(before.body);

    // The restored rows are live: the state machine goes on from them.
    const again = await restored.app.request(`${API}/${demoIds.pendingYesNo}/resolve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ result: { answer: 'no' } }),
    });
    expect(again.status).toBe(409);
    restored.close();
    h.backend.close();
  });

  it('restores into the tenant it names', async () => {
    const h = harness();
    await h.call('POST', `${API}/${demoIds.pendingYesNo}/cancel`);
    h.backend.restore({ calls: [], clockOffsetMs: 0 }, 'elsewhere');
    expect((await h.getCall(demoIds.pendingYesNo)).status).toBe('cancelled');
    const other = await h.call('GET', API, undefined, { 'x-mock-tenant': 'elsewhere' });
    expect(other.body).toEqual({ pending_tool_calls: [] });
    h.backend.close();
  });
});
