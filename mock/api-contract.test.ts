import { describe, expect, it } from 'vitest';
import { demoIds, seedId } from './seed';
import type { PendingToolCallRecord } from './store';
import { DAY, HOUR, harness, iso, MINUTE, SECOND, START } from './test-support';

const API = '/api/pending_tool_calls';
const NOT_FOUND = { detail: 'Pending tool call not found' };
const ONLY_ASK_HUMAN = { detail: 'Only ask_human tool calls can be managed from this endpoint' };
const NA_RESULT = {
  answer: 'User does not have information about this question.',
  not_applicable: true,
};

type List = { pending_tool_calls: PendingToolCallRecord[] };

const expiredId = demoIds.expired;
const cancelledId = demoIds.cancelled;
const supersededId = demoIds.superseded;
const resolvedId = demoIds.resolved;
const pendingId = demoIds.pendingYesNo;
const nonAskHumanExpiredId = seedId('access-review');

describe('404: unknown id or another organization', () => {
  const routes: [string, (id: string) => string, unknown][] = [
    ['GET', (id) => `${API}/${id}`, undefined],
    ['POST', (id) => `${API}/${id}/resolve`, { result: { answer: 'x' } }],
    ['PATCH', (id) => `${API}/${id}/answer`, { answer: 'x' }],
    ['POST', (id) => `${API}/${id}/not_applicable`, {}],
    ['POST', (id) => `${API}/${id}/cancel`, undefined],
  ];

  for (const id of [
    'ptc_00000000000000000000000000000000',
    demoIds.otherOrgPending,
    demoIds.otherOrgResolved,
  ]) {
    for (const [method, path, body] of routes) {
      it(`${method} ${path(':id')} → 404 for ${id}`, async () => {
        const h = harness();
        const reply = await h.call(method, path(id), body);
        expect(reply.status).toBe(404);
        expect(reply.body).toEqual(NOT_FOUND);
      });
    }
  }

  it('never lists the other organization and leaves its rows untouched', async () => {
    const h = harness();
    await h.call('POST', `${API}/${demoIds.otherOrgPending}/cancel`);
    await h.call('POST', `${API}/${demoIds.otherOrgPending}/resolve`, { result: { answer: 'y' } });
    const list = await h.call<List>('GET', `${API}?limit=500`);
    expect(list.body.pending_tool_calls.every((c) => c.org_id === 'org_demo')).toBe(true);
    const state = await h.control<{ calls: PendingToolCallRecord[] }>('GET', '/__mock/state');
    const other = state.body.calls.find((c) => c.id === demoIds.otherOrgPending);
    expect(other?.status).toBe('pending');
    expect(other?.org_id).toBe('org_other');
  });
});

describe('resolve', () => {
  it('resolves a pending call: result as sent, resolved_at now, valid_until now + 30 days', async () => {
    const h = harness();
    h.clock.advance(5 * SECOND);
    const now = START + 5 * SECOND;
    const reply = await h.call<PendingToolCallRecord>('POST', `${API}/${pendingId}/resolve`, {
      result: { answer: 'yes', nested: { list: [1, 2, { a: null }] } },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.status).toBe('resolved');
    expect(reply.body.result).toEqual({ answer: 'yes', nested: { list: [1, 2, { a: null }] } });
    expect(reply.body.resolved_at).toBe(iso(now));
    expect(reply.body.valid_until).toBe(iso(now + 30 * DAY));
    expect(await h.getCall(pendingId)).toEqual(reply.body);
  });

  it('uses valid_for_seconds when given (lax int like pydantic: "3600" is accepted)', async () => {
    const h = harness();
    const a = await h.call<PendingToolCallRecord>('POST', `${API}/${pendingId}/resolve`, {
      result: { answer: 'yes' },
      valid_for_seconds: 3600,
    });
    expect(a.body.valid_until).toBe(iso(START + HOUR));
    const b = await h.call<PendingToolCallRecord>(
      'POST',
      `${API}/${demoIds.pendingSoonest}/resolve`,
      {
        result: { answer: 'staging' },
        valid_for_seconds: '120',
      },
    );
    expect(b.status).toBe(200);
    expect(b.body.valid_until).toBe(iso(START + 2 * MINUTE));
    const c = await h.call<PendingToolCallRecord>('POST', `${API}/${demoIds.zeroWidth}/resolve`, {
      result: { answer: 'no' },
      valid_for_seconds: null,
    });
    expect(c.body.valid_until).toBe(iso(START + 30 * DAY));
  });

  it('is idempotent with a deep-equal result (key order ignored); the record is unchanged', async () => {
    const h = harness();
    const first = await h.call('POST', `${API}/${pendingId}/resolve`, {
      result: { answer: 'yes', meta: { a: 1, b: [true, 'x'] } },
    });
    h.clock.advance(HOUR);
    const second = await h.call('POST', `${API}/${pendingId}/resolve`, {
      result: { meta: { b: [true, 'x'], a: 1 }, answer: 'yes' },
      valid_for_seconds: 5,
    });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
  });

  it('409 when already resolved with a different result; the stored answer stays', async () => {
    const h = harness();
    await h.call('POST', `${API}/${pendingId}/resolve`, { result: { answer: 'yes' } });
    const reply = await h.call('POST', `${API}/${pendingId}/resolve`, { result: { answer: 'no' } });
    expect(reply.status).toBe(409);
    expect(reply.body).toEqual({
      detail: 'Pending tool call already resolved with a different result',
    });
    expect((await h.getCall(pendingId)).result).toEqual({ answer: 'yes' });
  });

  for (const [id, status] of [
    [expiredId, 'expired'],
    [cancelledId, 'cancelled'],
    [supersededId, 'superseded'],
  ] as const) {
    it(`409 "Pending tool call is ${status}" on a ${status} call`, async () => {
      const h = harness();
      const before = await h.getCall(id);
      const reply = await h.call('POST', `${API}/${id}/resolve`, { result: { answer: 'late' } });
      expect(reply.status).toBe(409);
      expect(reply.body).toEqual({ detail: `Pending tool call is ${status}` });
      expect(await h.getCall(id)).toEqual(before);
    });
  }

  it('resolves non-ask_human calls with any object result', async () => {
    const h = harness();
    const reply = await h.call<PendingToolCallRecord>(
      'POST',
      `${API}/${demoIds.nonAskHumanPending}/resolve`,
      { result: { approved: false, reason: 'Wait for the canary', retry_after_hours: 4 } },
    );
    expect(reply.status).toBe(200);
    expect(reply.body.tool_name).toBe('approve_deployment');
    expect(reply.body.result).toEqual({
      approved: false,
      reason: 'Wait for the canary',
      retry_after_hours: 4,
    });
  });

  it('accepts an empty object as result', async () => {
    const h = harness();
    const reply = await h.call<PendingToolCallRecord>('POST', `${API}/${pendingId}/resolve`, {
      result: {},
    });
    expect(reply.status).toBe(200);
    expect(reply.body.result).toEqual({});
  });
});

describe('cancel', () => {
  it('cancels a pending call and is idempotent on a cancelled one', async () => {
    const h = harness();
    const first = await h.call<PendingToolCallRecord>('POST', `${API}/${pendingId}/cancel`);
    expect(first.status).toBe(200);
    expect(first.body.status).toBe('cancelled');
    expect(first.body.result).toBeNull();
    const again = await h.call('POST', `${API}/${pendingId}/cancel`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const seeded = await h.call<PendingToolCallRecord>('POST', `${API}/${cancelledId}/cancel`);
    expect(seeded.status).toBe(200);
    expect(seeded.body.status).toBe('cancelled');
  });

  it('ignores any body (the endpoint takes none)', async () => {
    const h = harness();
    const withJunk = await h.call('POST', `${API}/${pendingId}/cancel`, '{"anything": [1, 2]}');
    expect(withJunk.status).toBe(200);
    const withGarbage = await h.call('POST', `${API}/${demoIds.zeroWidth}/cancel`, 'not json', {
      'content-type': 'application/json',
    });
    expect(withGarbage.status).toBe(200);
  });

  for (const [id, status] of [
    [resolvedId, 'resolved'],
    [expiredId, 'expired'],
    [supersededId, 'superseded'],
  ] as const) {
    it(`409 "Pending tool call is ${status}" when cancelling a ${status} call`, async () => {
      const h = harness();
      const reply = await h.call('POST', `${API}/${id}/cancel`);
      expect(reply.status).toBe(409);
      expect(reply.body).toEqual({ detail: `Pending tool call is ${status}` });
      expect((await h.getCall(id)).status).toBe(status);
    });
  }
});

describe('PATCH answer', () => {
  it('stores the trimmed answer, clears not_applicable and sets resolved_at/valid_until anew', async () => {
    const h = harness();
    h.clock.advance(10 * MINUTE);
    const now = START + 10 * MINUTE;
    const reply = await h.call<PendingToolCallRecord>(
      'PATCH',
      `${API}/${demoIds.notApplicable}/answer`,
      { answer: '  March 3, 2019 (per the signed PDF)\n' },
    );
    expect(reply.status).toBe(200);
    expect(reply.body.status).toBe('resolved');
    expect(reply.body.result).toEqual({ answer: 'March 3, 2019 (per the signed PDF)' });
    expect(reply.body.resolved_at).toBe(iso(now));
    expect(reply.body.valid_until).toBe(iso(now + 30 * DAY));
  });

  it('honours valid_for_seconds', async () => {
    const h = harness();
    const reply = await h.call<PendingToolCallRecord>('PATCH', `${API}/${resolvedId}/answer`, {
      answer: 'Yes, go ahead',
      valid_for_seconds: 60,
    });
    expect(reply.body.valid_until).toBe(iso(START + MINUTE));
  });

  for (const [id, status] of [
    [pendingId, 'pending'],
    [expiredId, 'expired'],
    [cancelledId, 'cancelled'],
    [supersededId, 'superseded'],
  ] as const) {
    it(`409 "Pending tool call is ${status}" when the call is ${status}`, async () => {
      const h = harness();
      const reply = await h.call('PATCH', `${API}/${id}/answer`, { answer: 'new' });
      expect(reply.status).toBe(409);
      expect(reply.body).toEqual({ detail: `Pending tool call is ${status}` });
      expect((await h.getCall(id)).status).toBe(status);
    });
  }

  it('409 for a non-ask_human call (checked before its state)', async () => {
    const h = harness();
    const resolved = await h.call('PATCH', `${API}/${demoIds.nonAskHumanResolved}/answer`, {
      answer: 'ok',
    });
    expect(resolved.status).toBe(409);
    expect(resolved.body).toEqual(ONLY_ASK_HUMAN);
    const pending = await h.call('PATCH', `${API}/${demoIds.nonAskHumanPending}/answer`, {
      answer: 'ok',
    });
    expect(pending.body).toEqual(ONLY_ASK_HUMAN);
  });

  it('422 with a string detail when the answer is blank after trimming', async () => {
    const h = harness();
    const before = await h.getCall(resolvedId);
    const reply = await h.call('PATCH', `${API}/${resolvedId}/answer`, { answer: ' \n\t ' });
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({ detail: 'Answer cannot be empty' });
    expect(await h.getCall(resolvedId)).toEqual(before);
  });

  it('check order, as the real router: schema 422 (list) → 404 → tool 409 → state 409 → blank 422', async () => {
    const h = harness();
    const schema = await h.call<{ detail: unknown[] }>('PATCH', `${API}/nope/answer`, {
      answer: '  ',
      extra: 1,
    });
    expect(schema.status).toBe(422);
    expect(Array.isArray(schema.body.detail)).toBe(true);
    const blankUnknown = await h.call('PATCH', `${API}/nope/answer`, { answer: '' });
    expect(blankUnknown.status).toBe(404);
    const blankOtherOrg = await h.call('PATCH', `${API}/${demoIds.otherOrgResolved}/answer`, {
      answer: ' ',
    });
    expect(blankOtherOrg.status).toBe(404);
    const toolBeforeState = await h.call('PATCH', `${API}/${nonAskHumanExpiredId}/answer`, {
      answer: 'x',
    });
    expect(toolBeforeState.body).toEqual(ONLY_ASK_HUMAN);
    const stateBeforeBlank = await h.call('PATCH', `${API}/${pendingId}/answer`, { answer: ' ' });
    expect(stateBeforeBlank.body).toEqual({ detail: 'Pending tool call is pending' });
  });
});

describe('not_applicable', () => {
  it('resolves a pending call with exactly the not-applicable payload', async () => {
    const h = harness();
    const reply = await h.call<PendingToolCallRecord>(
      'POST',
      `${API}/${pendingId}/not_applicable`,
      {},
    );
    expect(reply.status).toBe(200);
    expect(reply.body.status).toBe('resolved');
    expect(reply.body.result).toStrictEqual(NA_RESULT);
    expect(reply.body.resolved_at).toBe(iso(START));
    expect(reply.body.valid_until).toBe(iso(START + 30 * DAY));
  });

  it('overwrites the answer of a resolved call, with valid_for_seconds', async () => {
    const h = harness();
    h.clock.advance(MINUTE);
    const reply = await h.call<PendingToolCallRecord>(
      'POST',
      `${API}/${resolvedId}/not_applicable`,
      { valid_for_seconds: 600 },
    );
    expect(reply.status).toBe(200);
    expect(reply.body.result).toStrictEqual(NA_RESULT);
    expect(reply.body.resolved_at).toBe(iso(START + MINUTE));
    expect(reply.body.valid_until).toBe(iso(START + MINUTE + 600 * SECOND));
  });

  for (const [id, status] of [
    [expiredId, 'expired'],
    [cancelledId, 'cancelled'],
    [supersededId, 'superseded'],
  ] as const) {
    it(`409 "could not be marked not applicable" on a ${status} call`, async () => {
      const h = harness();
      const reply = await h.call('POST', `${API}/${id}/not_applicable`, {});
      expect(reply.status).toBe(409);
      expect(reply.body).toEqual({
        detail: 'Pending tool call could not be marked not applicable',
      });
      expect((await h.getCall(id)).status).toBe(status);
    });
  }

  it('409 for non-ask_human calls, whatever their state', async () => {
    const h = harness();
    for (const id of [demoIds.nonAskHumanPending, nonAskHumanExpiredId]) {
      const reply = await h.call('POST', `${API}/${id}/not_applicable`, {});
      expect(reply.status).toBe(409);
      expect(reply.body).toEqual(ONLY_ASK_HUMAN);
    }
  });

  it('requires a JSON body, like FastAPI with a required body model', async () => {
    const h = harness();
    const reply = await h.call('POST', `${API}/${pendingId}/not_applicable`);
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({
      detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }],
    });
  });
});

describe('superseding', () => {
  const question = 'Which Kafka cluster should the audit consumer read from?';

  it('resolving a call supersedes other still-valid resolved calls with the same key', async () => {
    const h = harness({ seed: 'empty' });
    const a = await h.ask(question);
    await h.call('POST', `${API}/${a.id}/resolve`, { result: { answer: 'kafka-eu-1' } });
    const unrelated = await h.ask('Some other question?');
    await h.call('POST', `${API}/${unrelated.id}/resolve`, { result: { answer: 'x' } });
    const otherTool = await h.ask(question, { tool_name: 'ask_human_v2' });
    await h.call('POST', `${API}/${otherTool.id}/resolve`, { result: { answer: 'x' } });
    const otherScope = await h.ask(question, {
      scope: { org_id: 'org_demo', scope_kind: 'user', user_id: 'u_1' },
    });
    await h.call('POST', `${API}/${otherScope.id}/resolve`, { result: { answer: 'x' } });
    const otherFormat = await h.ask(question, { answer_format: 'free text' });
    await h.call('POST', `${API}/${otherFormat.id}/resolve`, { result: { answer: 'x' } });

    h.clock.advance(10 * MINUTE);
    const b = await h.ask(`  ${question.toUpperCase()} `);
    expect(b.dedup_key).toBe(a.dedup_key);
    const reply = await h.call<PendingToolCallRecord>('POST', `${API}/${b.id}/resolve`, {
      result: { answer: 'kafka-eu-2' },
    });
    expect(reply.body.status).toBe('resolved');
    expect(reply.body.superseded_by).toBeNull();

    const oldA = await h.getCall(a.id);
    expect(oldA.status).toBe('superseded');
    expect(oldA.superseded_by).toBe(b.id);
    expect(oldA.result).toEqual({ answer: 'kafka-eu-1' });
    for (const id of [unrelated.id, otherTool.id, otherScope.id, otherFormat.id]) {
      expect((await h.getCall(id)).status).toBe('resolved');
    }
  });

  it('does not supersede a resolved call whose valid_until has passed', async () => {
    const h = harness({ seed: 'empty' });
    const a = await h.ask(question);
    await h.call('POST', `${API}/${a.id}/resolve`, {
      result: { answer: 'old' },
      valid_for_seconds: 60,
    });
    h.clock.advance(10 * MINUTE);
    const b = await h.ask(question);
    await h.call('POST', `${API}/${b.id}/resolve`, { result: { answer: 'new' } });
    expect((await h.getCall(a.id)).status).toBe('resolved');
  });

  it('editing an answer supersedes the other valid resolved calls', async () => {
    const h = harness({ seed: 'empty' });
    const a = await h.ask(question);
    await h.call('POST', `${API}/${a.id}/resolve`, {
      result: { answer: 'old' },
      valid_for_seconds: 60,
    });
    h.clock.advance(10 * MINUTE);
    const b = await h.ask(question);
    await h.call('POST', `${API}/${b.id}/resolve`, { result: { answer: 'newer' } });
    expect((await h.getCall(a.id)).status).toBe('resolved');

    const edited = await h.call<PendingToolCallRecord>('PATCH', `${API}/${a.id}/answer`, {
      answer: 'newest',
    });
    expect(edited.body.status).toBe('resolved');
    const oldB = await h.getCall(b.id);
    expect(oldB.status).toBe('superseded');
    expect(oldB.superseded_by).toBe(a.id);
  });

  it('marking not applicable does not supersede (as Reflexio’s stores)', async () => {
    const h = harness({ seed: 'empty' });
    const a = await h.ask(question);
    await h.call('POST', `${API}/${a.id}/resolve`, { result: { answer: 'old' } });
    h.clock.advance(10 * MINUTE);
    const c = await h.ask(question);
    await h.call('POST', `${API}/${c.id}/not_applicable`, {});
    const oldA = await h.getCall(a.id);
    expect(oldA.status).toBe('resolved');
    expect(oldA.superseded_by).toBeNull();
  });

  it('a superseded call can no longer be resolved, edited or cancelled', async () => {
    const h = harness({ seed: 'empty' });
    const a = await h.ask(question);
    await h.call('POST', `${API}/${a.id}/resolve`, { result: { answer: 'one' } });
    h.clock.advance(10 * MINUTE);
    const b = await h.ask(question);
    await h.call('POST', `${API}/${b.id}/resolve`, { result: { answer: 'two' } });
    const superseded = { detail: 'Pending tool call is superseded' };
    expect(
      (await h.call('POST', `${API}/${a.id}/resolve`, { result: { answer: 'one' } })).body,
    ).toEqual(superseded);
    expect((await h.call('PATCH', `${API}/${a.id}/answer`, { answer: 'three' })).body).toEqual(
      superseded,
    );
    expect((await h.call('POST', `${API}/${a.id}/cancel`)).body).toEqual(superseded);
    expect((await h.getCall(b.id)).status).toBe('resolved');
  });
});

describe('dedup on create', () => {
  const question = 'Should the EU invoices use the new VAT template?';

  it('attaches a repeat question to the pending call inside cache_until', async () => {
    const h = harness({ seed: 'empty' });
    const first = await h.call<{ created: boolean; call: PendingToolCallRecord }>(
      'POST',
      '/__mock/questions',
      { question, answer_format: 'yes/no' },
    );
    expect(first.status).toBe(201);
    expect(first.body.created).toBe(true);
    expect(first.body.call.cache_until).toBe(iso(START + 300 * SECOND));
    expect(first.body.call.expires_at).toBe(iso(START + DAY));

    h.clock.advance(299 * SECOND);
    const repeat = await h.call<{ created: boolean; call: PendingToolCallRecord }>(
      'POST',
      '/__mock/questions',
      {
        question: `  should the EU   invoices use the new VAT template?\n`,
        answer_format: 'Yes/No',
      },
    );
    expect(repeat.body.created).toBe(false);
    expect(repeat.body.call.id).toBe(first.body.call.id);
    const list = await h.call<List>('GET', API);
    expect(list.body.pending_tool_calls).toHaveLength(1);
  });

  it('creates a separate row after cache_until', async () => {
    const h = harness({ seed: 'empty' });
    const first = await h.ask(question);
    h.clock.advance(300 * SECOND);
    const second = await h.ask(question);
    expect(second.id).not.toBe(first.id);
    expect(second.dedup_key).toBe(first.dedup_key);
    const list = await h.call<List>('GET', API);
    expect(list.body.pending_tool_calls.map((c) => c.id)).toEqual([second.id, first.id]);
  });

  it('only attaches to pending calls with the same org, scope, tool and key', async () => {
    const h = harness({ seed: 'empty' });
    const first = await h.ask(question);
    const variants = [
      { answer_format: 'yes/no' },
      { tool_name: 'approve_invoice_template' },
      { org_id: 'org_other' },
      { scope: { org_id: 'org_demo', scope_kind: 'user', user_id: 'u_7f3a' } },
    ];
    for (const extra of variants) {
      expect((await h.ask(question, extra)).id).not.toBe(first.id);
    }
    await h.call('POST', `${API}/${first.id}/cancel`);
    expect((await h.ask(question)).id).not.toBe(first.id);
  });

  it('the seeded kickoff-call question is still inside its dedup window', async () => {
    const h = harness();
    const seeded = await h.getCall(demoIds.pendingInsideCacheWindow);
    const repeat = await h.call<{ created: boolean; call: PendingToolCallRecord }>(
      'POST',
      '/__mock/questions',
      { question: seeded.question_text, answer_format: seeded.answer_format },
    );
    expect(repeat.body).toMatchObject({ created: false, call: { id: seeded.id } });
  });
});

describe('expiry happens only in the sweeper', () => {
  it('an overdue row reads pending and can be resolved until the sweeper runs', async () => {
    const h = harness({ seed: 'empty' });
    const call = await h.ask('Rotate the staging TLS cert today?', { expires_in_seconds: 60 });
    expect(call.expires_at).toBe(iso(START + MINUTE));
    h.clock.advance(MINUTE + SECOND);
    expect((await h.getCall(call.id)).status).toBe('pending');
    const pending = await h.call<List>('GET', `${API}?status=pending`);
    expect(pending.body.pending_tool_calls.map((c) => c.id)).toEqual([call.id]);
    const resolved = await h.call<PendingToolCallRecord>('POST', `${API}/${call.id}/resolve`, {
      result: { answer: 'yes' },
    });
    expect(resolved.status).toBe(200);
    expect(resolved.body.status).toBe('resolved');
    expect(h.backend.sweep()).toBe(0);
  });

  it('sweep() flips overdue pending rows to expired; then resolve is 409', async () => {
    const h = harness({ seed: 'empty' });
    const due = await h.ask('Due question?', { expires_in_seconds: 60 });
    const exact = await h.ask('Due exactly now?', { expires_in_seconds: 61 });
    const later = await h.ask('Later question?', { expires_in_seconds: 3600 });
    h.clock.advance(61 * SECOND);
    expect(h.backend.sweep()).toBe(2);
    expect((await h.getCall(due.id)).status).toBe('expired');
    expect((await h.getCall(exact.id)).status).toBe('expired');
    expect((await h.getCall(later.id)).status).toBe('pending');
    const reply = await h.call('POST', `${API}/${due.id}/resolve`, { result: { answer: 'x' } });
    expect(reply.status).toBe(409);
    expect(reply.body).toEqual({ detail: 'Pending tool call is expired' });
    expect(h.backend.sweep()).toBe(0);
  });
});

describe('list', () => {
  it('orders by created_at desc, then id asc', async () => {
    const h = harness({ seed: 'empty' });
    const sameTime = [await h.ask('q1'), await h.ask('q2'), await h.ask('q3')];
    h.clock.advance(SECOND);
    const newest = await h.ask('q4');
    const list = await h.call<List>('GET', API);
    const expected = [newest.id, ...sameTime.map((c) => c.id).sort()];
    expect(list.body.pending_tool_calls.map((c) => c.id)).toEqual(expected);
  });

  it('seeded list is ordered too', async () => {
    const h = harness();
    const list = await h.call<List>('GET', `${API}?limit=500`);
    const times = list.body.pending_tool_calls.map((c) => Date.parse(c.created_at ?? ''));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('limit defaults to 100 and accepts 1 and 500', async () => {
    const h = harness({ seed: 'empty' });
    for (let i = 0; i < 120; i += 1) {
      await h.ask(`Question number ${i}?`);
      h.clock.advance(SECOND);
    }
    expect((await h.call<List>('GET', API)).body.pending_tool_calls).toHaveLength(100);
    expect((await h.call<List>('GET', `${API}?limit=500`)).body.pending_tool_calls).toHaveLength(
      120,
    );
    const one = await h.call<List>('GET', `${API}?limit=1`);
    expect(one.body.pending_tool_calls.map((c) => c.question_text)).toEqual([
      'Question number 119?',
    ]);
  });

  it('filters by status', async () => {
    const h = harness();
    for (const status of ['pending', 'resolved', 'expired', 'superseded', 'cancelled']) {
      const list = await h.call<List>('GET', `${API}?status=${status}&limit=500`);
      expect(list.status).toBe(200);
      expect(list.body.pending_tool_calls.length).toBeGreaterThan(0);
      expect(list.body.pending_tool_calls.every((c) => c.status === status)).toBe(true);
    }
  });

  it('returns the body shape {"pending_tool_calls": [...]} with full records', async () => {
    const h = harness();
    const list = await h.call<List>('GET', `${API}?status=pending&limit=1`);
    expect(Object.keys(list.body)).toEqual(['pending_tool_calls']);
    expect(Object.keys(list.body.pending_tool_calls[0] ?? {})).toEqual([
      'id',
      'org_id',
      'scope',
      'scope_hash',
      'tool_name',
      'dedup_key',
      'status',
      'question_text',
      'args',
      'tags',
      'user_id',
      'answer_format',
      'result',
      'superseded_by',
      'created_at',
      'resolved_at',
      'expires_at',
      'cache_until',
      'valid_until',
    ]);
  });
});

describe('422 list-shaped validation errors', () => {
  const cases: [string, string, string, unknown, unknown[]][] = [
    [
      'limit=0',
      'GET',
      `${API}?limit=0`,
      undefined,
      [
        {
          type: 'greater_than_equal',
          loc: ['query', 'limit'],
          msg: 'Input should be greater than or equal to 1',
          input: '0',
          ctx: { ge: 1 },
        },
      ],
    ],
    [
      'limit=501',
      'GET',
      `${API}?limit=501`,
      undefined,
      [
        {
          type: 'less_than_equal',
          loc: ['query', 'limit'],
          msg: 'Input should be less than or equal to 500',
          input: '501',
          ctx: { le: 500 },
        },
      ],
    ],
    [
      'limit=ten',
      'GET',
      `${API}?limit=ten`,
      undefined,
      [
        {
          type: 'int_parsing',
          loc: ['query', 'limit'],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: 'ten',
        },
      ],
    ],
    [
      'bad status and bad limit together',
      'GET',
      `${API}?status=open&limit=-1`,
      undefined,
      [
        {
          type: 'enum',
          loc: ['query', 'status'],
          msg: "Input should be 'pending', 'resolved', 'expired', 'superseded' or 'cancelled'",
          input: 'open',
          ctx: { expected: "'pending', 'resolved', 'expired', 'superseded' or 'cancelled'" },
        },
        {
          type: 'greater_than_equal',
          loc: ['query', 'limit'],
          msg: 'Input should be greater than or equal to 1',
          input: '-1',
          ctx: { ge: 1 },
        },
      ],
    ],
    [
      'valid_for_seconds = 0',
      'POST',
      `${API}/${pendingId}/resolve`,
      { result: { answer: 'x' }, valid_for_seconds: 0 },
      [
        {
          type: 'greater_than',
          loc: ['body', 'valid_for_seconds'],
          msg: 'Input should be greater than 0',
          input: 0,
          ctx: { gt: 0 },
        },
      ],
    ],
    [
      'valid_for_seconds negative on PATCH',
      'PATCH',
      `${API}/${resolvedId}/answer`,
      { answer: 'x', valid_for_seconds: -5 },
      [
        {
          type: 'greater_than',
          loc: ['body', 'valid_for_seconds'],
          msg: 'Input should be greater than 0',
          input: -5,
          ctx: { gt: 0 },
        },
      ],
    ],
    [
      'valid_for_seconds not a number on not_applicable',
      'POST',
      `${API}/${pendingId}/not_applicable`,
      { valid_for_seconds: 'soon' },
      [
        {
          type: 'int_parsing',
          loc: ['body', 'valid_for_seconds'],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: 'soon',
        },
      ],
    ],
    [
      'valid_for_seconds fractional',
      'POST',
      `${API}/${pendingId}/resolve`,
      { result: {}, valid_for_seconds: 1.5 },
      [
        {
          type: 'int_from_float',
          loc: ['body', 'valid_for_seconds'],
          msg: 'Input should be a valid integer, got a number with a fractional part',
          input: 1.5,
        },
      ],
    ],
    [
      'valid_for_seconds an object',
      'POST',
      `${API}/${pendingId}/resolve`,
      { result: {}, valid_for_seconds: { s: 1 } },
      [
        {
          type: 'int_type',
          loc: ['body', 'valid_for_seconds'],
          msg: 'Input should be a valid integer',
          input: { s: 1 },
        },
      ],
    ],
    [
      'missing result',
      'POST',
      `${API}/${pendingId}/resolve`,
      { valid_for_seconds: 10 },
      [
        {
          type: 'missing',
          loc: ['body', 'result'],
          msg: 'Field required',
          input: { valid_for_seconds: 10 },
        },
      ],
    ],
    [
      'result not an object',
      'POST',
      `${API}/${pendingId}/resolve`,
      { result: 'AWS ECS' },
      [
        {
          type: 'dict_type',
          loc: ['body', 'result'],
          msg: 'Input should be a valid dictionary',
          input: 'AWS ECS',
        },
      ],
    ],
    [
      'result a list',
      'POST',
      `${API}/${pendingId}/resolve`,
      { result: ['AWS ECS'] },
      [
        {
          type: 'dict_type',
          loc: ['body', 'result'],
          msg: 'Input should be a valid dictionary',
          input: ['AWS ECS'],
        },
      ],
    ],
    [
      'the client answer= shortcut sent raw (unknown field + missing result)',
      'POST',
      `${API}/${pendingId}/resolve`,
      { answer: 'AWS ECS' },
      [
        {
          type: 'missing',
          loc: ['body', 'result'],
          msg: 'Field required',
          input: { answer: 'AWS ECS' },
        },
        {
          type: 'extra_forbidden',
          loc: ['body', 'answer'],
          msg: 'Extra inputs are not permitted',
          input: 'AWS ECS',
        },
      ],
    ],
    [
      'unknown field on PATCH (question_text)',
      'PATCH',
      `${API}/${resolvedId}/answer`,
      { answer: 'AWS ECS', question_text: 'Can this change?' },
      [
        {
          type: 'extra_forbidden',
          loc: ['body', 'question_text'],
          msg: 'Extra inputs are not permitted',
          input: 'Can this change?',
        },
      ],
    ],
    [
      'unknown field on not_applicable',
      'POST',
      `${API}/${pendingId}/not_applicable`,
      { reason: 'n/a' },
      [
        {
          type: 'extra_forbidden',
          loc: ['body', 'reason'],
          msg: 'Extra inputs are not permitted',
          input: 'n/a',
        },
      ],
    ],
    [
      'answer not a string',
      'PATCH',
      `${API}/${resolvedId}/answer`,
      { answer: 42 },
      [
        {
          type: 'string_type',
          loc: ['body', 'answer'],
          msg: 'Input should be a valid string',
          input: 42,
        },
      ],
    ],
    [
      'answer missing',
      'PATCH',
      `${API}/${resolvedId}/answer`,
      {},
      [{ type: 'missing', loc: ['body', 'answer'], msg: 'Field required', input: {} }],
    ],
    [
      'malformed JSON',
      'POST',
      `${API}/${pendingId}/resolve`,
      '{"result": {"answer": "x"',
      [
        {
          type: 'json_invalid',
          loc: ['body', 25],
          msg: 'JSON decode error',
          input: {},
          ctx: { error: "Expecting ',' delimiter" },
        },
      ],
    ],
    [
      'no body at all',
      'POST',
      `${API}/${pendingId}/resolve`,
      undefined,
      [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }],
    ],
    [
      'a JSON array body',
      'POST',
      `${API}/${pendingId}/resolve`,
      '[]',
      [
        {
          type: 'model_attributes_type',
          loc: ['body'],
          msg: 'Input should be a valid dictionary or object to extract fields from',
          input: [],
        },
      ],
    ],
  ];

  for (const [name, method, path, body, detail] of cases) {
    it(`${name} → 422`, async () => {
      const h = harness();
      const before = await h.control<{ calls: unknown[] }>('GET', '/__mock/state');
      const reply = await h.call(method, path, body);
      expect(reply.status).toBe(422);
      expect(reply.body).toEqual({ detail });
      const after = await h.control<{ calls: unknown[] }>('GET', '/__mock/state');
      expect(after.body.calls).toEqual(before.body.calls);
    });
  }

  it('validates the body before looking the id up', async () => {
    const h = harness();
    const reply = await h.call<{ detail: unknown }>('POST', `${API}/unknown/resolve`, {
      result: 1,
    });
    expect(reply.status).toBe(422);
    expect(Array.isArray(reply.body.detail)).toBe(true);
  });
});

describe('routing', () => {
  it('unknown route → 404 Not Found; wrong method → 405 with Allow', async () => {
    const h = harness();
    expect(await h.call('GET', '/api/nothing_here')).toMatchObject({
      status: 404,
      body: { detail: 'Not Found' },
    });
    expect(await h.call('GET', `${API}/${pendingId}/unknown_action`)).toMatchObject({
      status: 404,
      body: { detail: 'Not Found' },
    });
    const wrong = await h.call('DELETE', `${API}/${pendingId}`);
    expect(wrong.status).toBe(405);
    expect(wrong.body).toEqual({ detail: 'Method Not Allowed' });
    expect(wrong.headers.get('allow')).toBe('GET, HEAD');
    const getResolve = await h.call('GET', `${API}/${pendingId}/resolve`);
    expect(getResolve).toMatchObject({ status: 405, body: { detail: 'Method Not Allowed' } });
    expect(getResolve.headers.get('allow')).toBe('POST');
    expect((await h.call('POST', `${API}/${pendingId}/answer`, { answer: 'x' })).status).toBe(405);
    expect((await h.call('PUT', API, {})).status).toBe(405);
  });

  it('a trailing slash redirects (307) like Starlette', async () => {
    const h = harness();
    const reply = await h.call('GET', `${API}/?status=pending`);
    expect(reply.status).toBe(307);
    expect(reply.headers.get('location')).toBe(
      'http://localhost/api/pending_tool_calls?status=pending',
    );
  });
});

describe('auth', () => {
  it('is off by default', async () => {
    const h = harness();
    expect((await h.call('GET', API)).status).toBe(200);
  });

  it('when apiKey is set: missing → 401 Not authenticated with WWW-Authenticate; wrong → 401 Invalid API key', async () => {
    const h = harness({ apiKey: 'sk-test-123' });
    const missing = await h.call('GET', API);
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ detail: 'Not authenticated' });
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    const basic = await h.call('GET', API, undefined, { authorization: 'Basic c2stdGVzdC0xMjM=' });
    expect(basic.body).toEqual({ detail: 'Not authenticated' });
    const wrong = await h.call('POST', `${API}/${pendingId}/cancel`, undefined, {
      authorization: 'Bearer sk-wrong',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ detail: 'Invalid API key' });
    const after = await h.call<PendingToolCallRecord>('GET', `${API}/${pendingId}`, undefined, {
      authorization: 'Bearer sk-test-123',
    });
    expect(after.body.status).toBe('pending');
    const ok = await h.call('GET', API, undefined, { authorization: 'Bearer sk-test-123' });
    expect(ok.status).toBe(200);
  });

  it('protects /__mock only with a controlKey of its own', async () => {
    const h = harness({ apiKey: 'sk-test-123' });
    expect((await h.control('GET', '/__mock/state')).status).toBe(200);
    const guarded = harness({ apiKey: 'sk-test-123', controlKey: 'sk-test-123' });
    const refused = await guarded.control('POST', '/__mock/reset', {});
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    const allowed = await guarded.control(
      'POST',
      '/__mock/reset',
      {},
      {
        authorization: 'Bearer sk-test-123',
      },
    );
    expect(allowed.status).toBe(200);
  });
});

describe('user agent check', () => {
  it('403 for non-browser user agents when enabled', async () => {
    const h = harness({ checkUserAgent: true });
    for (const ua of [undefined, 'curl/8.5.0', 'python-requests/2.32', 'my-agent-reflexio']) {
      const reply = await h.call('GET', API, undefined, ua ? { 'user-agent': ua } : {});
      expect(reply.status).toBe(403);
      expect(reply.body).toEqual({ detail: 'Forbidden: Suspicious user agent' });
    }
    const browser = await h.call('GET', API, undefined, {
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36',
    });
    expect(browser.status).toBe(200);
    expect((await h.control('GET', '/__mock/state')).status).toBe(200);
  });

  it('is off by default', async () => {
    const h = harness();
    expect((await h.call('GET', API, undefined, { 'user-agent': 'curl/8.5.0' })).status).toBe(200);
  });
});

describe('413', () => {
  it('rejects a body over maxBodyBytes (default 1 MiB)', async () => {
    const h = harness();
    const big = JSON.stringify({ result: { answer: 'x'.repeat(1_048_576) } });
    const reply = await h.call('POST', `${API}/${pendingId}/resolve`, big);
    expect(reply.status).toBe(413);
    expect(reply.body).toEqual({ detail: 'Request body too large' });
    expect((await h.getCall(pendingId)).status).toBe('pending');
  });

  it('counts bytes, not characters, against a custom limit', async () => {
    const fits = JSON.stringify({ result: { answer: 'abcdefghij' } });
    const multiByte = JSON.stringify({ result: { answer: 'éééééé' } });
    expect(multiByte.length).toBeLessThan(fits.length);
    const h = harness({ maxBodyBytes: fits.length });
    expect((await h.call('POST', `${API}/${pendingId}/resolve`, fits)).status).toBe(200);
    const reply = await h.call('POST', `${API}/${demoIds.zeroWidth}/resolve`, multiByte);
    expect(reply.status).toBe(413);
    expect(reply.body).toEqual({ detail: 'Request body too large' });
  });
});
