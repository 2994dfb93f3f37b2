import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMockBackend } from './app';
import { createManualClock } from './clock';
import { demoIds } from './seed';
import type { PendingToolCallRecord } from './store';
import { HOUR, harness, iso, MINUTE, SECOND, START } from './test-support';

const API = '/api/pending_tool_calls';
type List = { pending_tool_calls: PendingToolCallRecord[] };
type State = {
  tenant: string;
  now: string;
  nowMs: number;
  clockOffsetMs: number;
  calls: PendingToolCallRecord[];
  faults: unknown[];
};
type Created = { created: boolean; call: PendingToolCallRecord };

afterEach(() => {
  vi.useRealTimers();
});

describe('tenants', () => {
  it('each tenant has its own store; header and cookie name the same tenant', async () => {
    const h = harness();
    const a = { 'x-mock-tenant': 'worker-a' };
    const reply = await h.call('POST', `${API}/${demoIds.pendingYesNo}/cancel`, undefined, a);
    expect(reply.status).toBe(200);
    expect((await h.getCall(demoIds.pendingYesNo)).status).toBe('pending');
    const viaCookie = await h.call<PendingToolCallRecord>(
      'GET',
      `${API}/${demoIds.pendingYesNo}`,
      undefined,
      { cookie: 'theme=dark; mock_tenant=worker-a' },
    );
    expect(viaCookie.body.status).toBe('cancelled');
    const other = await h.call<PendingToolCallRecord>(
      'GET',
      `${API}/${demoIds.pendingYesNo}`,
      undefined,
      { 'x-mock-tenant': 'worker-b' },
    );
    expect(other.body.status).toBe('pending');
  });

  it('each tenant has its own clock offset and fault queue', async () => {
    const h = harness();
    const a = { 'x-mock-tenant': 'a' };
    await h.control('POST', '/__mock/clock', { advanceMs: HOUR }, a);
    await h.control('POST', '/__mock/faults', { kind: 'status', status: 503 }, a);
    const stateA = await h.control<State>('GET', '/__mock/state', undefined, a);
    expect(stateA.body).toMatchObject({
      tenant: 'a',
      clockOffsetMs: HOUR,
      nowMs: START + HOUR,
      now: iso(START + HOUR),
    });
    expect(stateA.body.faults).toHaveLength(1);
    const stateDefault = await h.control<State>('GET', '/__mock/state');
    expect(stateDefault.body).toMatchObject({ tenant: 'default', clockOffsetMs: 0, faults: [] });
    expect((await h.call('GET', API)).status).toBe(200);
    expect((await h.call('GET', API, undefined, a)).status).toBe(503);
  });

  it("API answers carry the tenant's own time in their Date header, as a real server's clock", async () => {
    const h = harness();
    const a = { 'x-mock-tenant': 'ahead' };
    await h.control('POST', '/__mock/clock', { advanceMs: 15 * MINUTE }, a);
    const ahead = await h.call('GET', API, undefined, a);
    expect(ahead.headers.get('date')).toBe(new Date(START + 15 * MINUTE).toUTCString());
    const plain = await h.call('GET', API);
    expect(plain.headers.get('date')).toBe(new Date(START).toUTCString());
  });

  it('a tenant is seeded from its own now; backend.sweep() without a name sweeps every tenant', async () => {
    const h = harness();
    const a = { 'x-mock-tenant': 'late' };
    await h.control('GET', '/__mock/state', undefined, a);
    h.clock.advance(5 * MINUTE);
    // Seed rows expiring in ~2 and ~4 minutes are now overdue in both tenants.
    expect(h.backend.sweep('default')).toBe(2);
    expect(h.backend.sweep()).toBe(2);
    expect(h.backend.sweep()).toBe(0);
  });
  it('keeps at most maxTenants: the one used least recently goes, never the default', async () => {
    const h = harness({ maxTenants: 3 });
    const as = (tenant: string) => ({ 'x-mock-tenant': tenant });
    const statusIn = async (tenant: string) =>
      (
        await h.call<PendingToolCallRecord>(
          'GET',
          `${API}/${demoIds.pendingYesNo}`,
          undefined,
          as(tenant),
        )
      ).body.status;
    const cancelIn = (tenant: string) =>
      h.call('POST', `${API}/${demoIds.pendingYesNo}/cancel`, undefined, as(tenant));

    await cancelIn('default');
    await cancelIn('a');
    await statusIn('b'); // default, a, b
    expect(await statusIn('a')).toBe('cancelled'); // a is now the most recent: b goes next
    await statusIn('c');
    expect(await statusIn('a')).toBe('cancelled');
    for (const tenant of ['d', 'e', 'f', 'g']) await statusIn(tenant);
    // a was evicted and comes back as a fresh demo; the default tenant stays.
    expect(await statusIn('a')).toBe('pending');
    expect(await statusIn('default')).toBe('cancelled');
  });
});

describe('control surface', () => {
  it('GET /__mock lists the routes', async () => {
    const h = harness();
    const help = await h.control<{ control: string[] }>('GET', '/__mock');
    expect(help.status).toBe(200);
    expect(help.body.control.some((line) => line.includes('/__mock/faults'))).toBe(true);
  });

  it('GET /__mock/state returns every row, including the other organization', async () => {
    const h = harness();
    const state = await h.control<State>('GET', '/__mock/state');
    expect(state.body.tenant).toBe('default');
    expect(state.body.now).toBe(iso(START));
    expect(state.body.calls.some((c) => c.org_id === 'org_other')).toBe(true);
    const list = await h.call<List>('GET', `${API}?limit=500`);
    expect(state.body.calls.length).toBe(list.body.pending_tool_calls.length + 2);
  });

  it('POST /__mock/reset reseeds, clears faults and the clock offset', async () => {
    const h = harness();
    await h.call('POST', `${API}/${demoIds.pendingYesNo}/cancel`);
    await h.control('POST', '/__mock/clock', { advanceMs: 10 * MINUTE });
    await h.control('POST', '/__mock/faults', { kind: 'html', count: 5 });
    const reset = await h.control('POST', '/__mock/reset', {});
    expect(reset.status).toBe(200);
    const state = await h.control<State>('GET', '/__mock/state');
    expect(state.body.clockOffsetMs).toBe(0);
    expect(state.body.faults).toEqual([]);
    expect((await h.getCall(demoIds.pendingYesNo)).status).toBe('pending');

    await h.control('POST', '/__mock/reset', { seed: 'empty' });
    expect((await h.call<List>('GET', API)).body.pending_tool_calls).toEqual([]);
    expect((await h.control('POST', '/__mock/reset', { seed: 'lots' })).status).toBe(422);
  });

  it('backend.reset() resets a named tenant or all of them', async () => {
    const h = harness();
    const a = { 'x-mock-tenant': 'a' };
    await h.call('POST', `${API}/${demoIds.pendingYesNo}/cancel`, undefined, a);
    await h.call('POST', `${API}/${demoIds.pendingYesNo}/cancel`);
    h.backend.reset('a');
    expect(
      (await h.call<PendingToolCallRecord>('GET', `${API}/${demoIds.pendingYesNo}`, undefined, a))
        .body.status,
    ).toBe('pending');
    expect((await h.getCall(demoIds.pendingYesNo)).status).toBe('cancelled');
    h.backend.reset(undefined, 'empty');
    expect((await h.call<List>('GET', API)).body.pending_tool_calls).toEqual([]);
    expect((await h.call<List>('GET', API, undefined, a)).body.pending_tool_calls).toEqual([]);
  });

  it('POST /__mock/questions creates like ask_human, with defaults', async () => {
    const h = harness({ seed: 'empty' });
    const reply = await h.control<Created>('POST', '/__mock/questions', {
      question: 'Which on-call rotation owns the payments alerts?',
      answer_format: 'free text',
      tags: ['infra'],
      user_id: 'alice@example.com',
    });
    expect(reply.status).toBe(201);
    expect(reply.body.created).toBe(true);
    expect(reply.body.call).toMatchObject({
      org_id: 'org_demo',
      scope: { org_id: 'org_demo', scope_kind: 'org' },
      tool_name: 'ask_human',
      status: 'pending',
      question_text: 'Which on-call rotation owns the payments alerts?',
      args: {
        question: 'Which on-call rotation owns the payments alerts?',
        answer_format: 'free text',
      },
      tags: ['infra'],
      user_id: 'alice@example.com',
      answer_format: 'free text',
      result: null,
      superseded_by: null,
      created_at: iso(START),
      resolved_at: null,
      expires_at: iso(START + 24 * HOUR),
      cache_until: iso(START + 300 * SECOND),
      valid_until: null,
    });
    expect(reply.body.call.id).toMatch(/^ptc_[0-9a-f]{32}$/);
  });

  it('POST /__mock/questions takes a tool, args, scope, org, expiry and a fixed id', async () => {
    const h = harness({ seed: 'empty' });
    const reply = await h.control<Created>('POST', '/__mock/questions', {
      id: 'ptc_fixed',
      question: 'Approve the firewall change?',
      tool_name: 'approve_change',
      args: { rule: 'allow 443 from 10.0.0.0/8' },
      expires_in_seconds: 180,
    });
    expect(reply.body.call).toMatchObject({
      id: 'ptc_fixed',
      tool_name: 'approve_change',
      args: { rule: 'allow 443 from 10.0.0.0/8' },
      answer_format: null,
      user_id: null,
      tags: [],
      expires_at: iso(START + 180 * SECOND),
    });
    const duplicate = await h.control('POST', '/__mock/questions', {
      id: 'ptc_fixed',
      question: 'Other?',
    });
    expect(duplicate.status).toBe(409);
    const bad = await h.control('POST', '/__mock/questions', { question: '' });
    expect(bad.status).toBe(422);
    const junk = await h.control('POST', '/__mock/questions', '{nope');
    expect(junk.status).toBe(400);
  });

  it('acts as another reviewer with the API rules and bodies', async () => {
    const h = harness();
    const id = demoIds.pendingYesNo;
    const byAnswer = await h.control<PendingToolCallRecord>(
      'POST',
      `/__mock/questions/${id}/resolve`,
      { answer: 'yes' },
    );
    expect(byAnswer.status).toBe(200);
    expect(byAnswer.body.result).toEqual({ answer: 'yes' });
    const conflict = await h.control('POST', `/__mock/questions/${id}/resolve`, {
      result: { answer: 'no' },
    });
    expect(conflict).toMatchObject({
      status: 409,
      body: { detail: 'Pending tool call already resolved with a different result' },
    });
    const both = await h.control('POST', `/__mock/questions/${id}/resolve`, {
      answer: 'x',
      result: {},
    });
    expect(both.status).toBe(422);
    const edited = await h.control<PendingToolCallRecord>(
      'POST',
      `/__mock/questions/${id}/answer`,
      {
        answer: ' edited ',
      },
    );
    expect(edited.body.result).toEqual({ answer: 'edited' });
    const na = await h.control<PendingToolCallRecord>(
      'POST',
      `/__mock/questions/${id}/not_applicable`,
    );
    expect(na.body.result).toEqual({
      answer: 'User does not have information about this question.',
      not_applicable: true,
    });
    const cancel = await h.control('POST', `/__mock/questions/${id}/cancel`);
    expect(cancel).toMatchObject({
      status: 409,
      body: { detail: 'Pending tool call is resolved' },
    });
    expect((await h.getCall(id)).result).toEqual(na.body.result);
    const missing = await h.control('POST', '/__mock/questions/ptc_nope/cancel');
    expect(missing).toMatchObject({ status: 404, body: { detail: 'Pending tool call not found' } });
  });

  it('expire sets expires_at to now and sweeps', async () => {
    const h = harness();
    h.clock.advance(MINUTE);
    const reply = await h.control<PendingToolCallRecord>(
      'POST',
      `/__mock/questions/${demoIds.longText}/expire`,
    );
    expect(reply.status).toBe(200);
    expect(reply.body.status).toBe('expired');
    expect(reply.body.expires_at).toBe(iso(START + MINUTE));
    const again = await h.control('POST', `/__mock/questions/${demoIds.longText}/expire`);
    expect(again).toMatchObject({ status: 409, body: { detail: 'Pending tool call is expired' } });
  });

  it('DELETE makes a row vanish: later 404', async () => {
    const h = harness();
    const reply = await h.control('DELETE', `/__mock/questions/${demoIds.pendingYesNo}`);
    expect(reply).toMatchObject({ status: 200, body: { deleted: demoIds.pendingYesNo } });
    expect((await h.call('GET', `${API}/${demoIds.pendingYesNo}`)).status).toBe(404);
    expect((await h.call('POST', `${API}/${demoIds.pendingYesNo}/cancel`)).status).toBe(404);
    expect((await h.control('DELETE', `/__mock/questions/${demoIds.pendingYesNo}`)).status).toBe(
      404,
    );
  });

  it('POST /__mock/clock shifts the tenant clock; POST /__mock/sweep expires what is due', async () => {
    const h = harness();
    const clock = await h.control<State>('POST', '/__mock/clock', { advanceMs: 5 * MINUTE });
    expect(clock.body).toMatchObject({ clockOffsetMs: 5 * MINUTE, now: iso(START + 5 * MINUTE) });
    expect((await h.getCall(demoIds.pendingSoonest)).status).toBe('pending');
    const swept = await h.control('POST', '/__mock/sweep');
    expect(swept.body).toEqual({ expired: 2 });
    expect((await h.getCall(demoIds.pendingSoonest)).status).toBe('expired');
    const created = await h.ask('Created after the shift?');
    expect(created.created_at).toBe(iso(START + 5 * MINUTE));
    expect((await h.control('POST', '/__mock/clock', { advanceMs: 'soon' })).status).toBe(422);
  });

  it('POST /__mock/simulator/tick asks one question in the calling tenant', async () => {
    const h = harness({ seed: 'empty' });
    const tick = await h.control<Created>('POST', '/__mock/simulator/tick', undefined, {
      'x-mock-tenant': 'demo-2',
    });
    expect(tick.status).toBe(201);
    expect(tick.body.call.status).toBe('pending');
    const list = await h.call<List>('GET', API, undefined, { 'x-mock-tenant': 'demo-2' });
    expect(list.body.pending_tool_calls).toHaveLength(1);
    expect((await h.call<List>('GET', API)).body.pending_tool_calls).toHaveLength(0);
  });
});

describe('sweeper timer', () => {
  it('sweeps every sweepIntervalMs until close()', async () => {
    vi.useFakeTimers();
    const clock = createManualClock(START);
    const backend = createMockBackend({ clock, seed: 'empty', sweepIntervalMs: 2000 });
    const create = (question: string) =>
      backend.app.request('/__mock/questions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question, expires_in_seconds: 1 }),
      });
    const first = (await (await create('First?')).json()) as Created;
    clock.advance(5 * SECOND);
    vi.advanceTimersByTime(1999);
    const before = (await (await backend.app.request(`${API}/${first.call.id}`)).json()) as {
      status: string;
    };
    expect(before.status).toBe('pending');
    vi.advanceTimersByTime(1);
    const after = (await (await backend.app.request(`${API}/${first.call.id}`)).json()) as {
      status: string;
    };
    expect(after.status).toBe('expired');

    backend.close();
    const second = (await (await create('Second?')).json()) as Created;
    clock.advance(5 * SECOND);
    vi.advanceTimersByTime(10_000);
    const stillPending = (await (await backend.app.request(`${API}/${second.call.id}`)).json()) as {
      status: string;
    };
    expect(stillPending.status).toBe('pending');
  });
});
