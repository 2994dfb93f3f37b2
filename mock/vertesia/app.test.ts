import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createManualClock } from '../clock';
import { caller } from '../source-test-support';
import { createVertesiaMock, VERTESIA_API_VERSION } from './app';
import { vertesiaDemoIds as ids } from './seed';

/**
 * Contract of the Vertesia mock against 004_c6f74b07820db5b9.txt: every response is parsed with
 * a schema written from the document's components (additionalProperties: false → strict), and
 * the document's examples (the header value, both ErrorResponse examples) are sent or compared
 * as written.
 */
const START = Date.parse('2026-11-30T09:00:00.000Z');
const HOUR = 3_600_000;
const KEY = 'vrt_test_key';
const HEADERS = { 'x-api-version': '20260803', authorization: `Bearer ${KEY}` };
const API = '/api/v1/pending-asks';

const userChannel = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('email'),
      to_email: z.string(),
      thread_subject: z.string().optional(),
      in_reply_to: z.string().optional(),
      references: z.array(z.string()).optional(),
      route_key: z.string().optional(),
    })
    .strict(),
  z.object({ type: z.literal('interactive') }).strict(),
]);
const pendingAskData = z
  .object({
    askId: z.string(),
    runId: z.string(),
    workflowId: z.string(),
    projectId: z.string(),
    accountId: z.string(),
    agentName: z.string(),
    questions: z.array(z.string()),
    timeoutHours: z.number(),
    userChannels: z.array(userChannel),
    createdAt: z.number(),
    expiresAt: z.number(),
    status: z.enum(['pending', 'resolved', 'expired']),
    taskId: z.string().optional(),
    resolvedAt: z.number().optional(),
    response: z.string().optional(),
  })
  .strict();
const listResponse = z.object({ asks: z.array(pendingAskData) }).strict();
const resolveResponse = z
  .object({
    success: z.boolean(),
    webhookSent: z.boolean().optional(),
    waitDurationMs: z.number().optional(),
    error: z.string().optional(),
  })
  .strict();
const registerResponse = z
  .object({
    success: z.boolean(),
    askId: z.string().optional(),
    webhookSent: z.boolean().optional(),
    error: z.string().optional(),
  })
  .strict();
const errorResponse = z
  .object({
    error: z.string(),
    status: z.number().int().min(400).max(599),
    message: z.string().optional(),
    details: z.string().optional(),
    errorCode: z.string().optional(),
  })
  .strict();

function setup(options: Parameters<typeof createVertesiaMock>[0] = {}) {
  const clock = createManualClock(START);
  const mock = createVertesiaMock({ clock, apiKey: KEY, ...options });
  return { clock, mock, call: caller(mock.app, HEADERS), raw: caller(mock.app) };
}

describe('Vertesia mock: the documented operations', () => {
  it('ListPendingAsks: every ask of the project, all statuses, newest first', async () => {
    const { call } = setup();
    const reply = await call('GET', API);
    expect(reply.status).toBe(200);
    const { asks } = listResponse.parse(reply.body);
    expect(asks.length).toBeGreaterThanOrEqual(9);
    expect(new Set(asks.map((a) => a.status))).toEqual(new Set(['pending', 'resolved', 'expired']));
    const created = asks.map((a) => a.createdAt);
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect(new Set(asks.map((a) => a.projectId)).size).toBe(1);
  });

  it('the demo shows the shape: a two-question ask, several agents, a task, an email channel', async () => {
    const { call } = setup();
    const { asks } = listResponse.parse((await call('GET', API)).body);
    const two = asks.find((a) => a.askId === ids.twoQuestions);
    expect(two?.questions).toHaveLength(2);
    const singles = asks.filter((a) => a.status === 'pending' && a.questions.length === 1);
    expect(new Set(singles.map((a) => a.agentName)).size).toBeGreaterThanOrEqual(4);
    expect(asks.some((a) => a.taskId !== undefined)).toBe(true);
    expect(asks.some((a) => a.userChannels.some((ch) => ch.type === 'email'))).toBe(true);
  });

  it('GetPendingAsk: one ask; epoch-ms times; expiresAt = createdAt + timeoutHours', async () => {
    const { call } = setup();
    const reply = await call('GET', `${API}/${ids.twoQuestions}`);
    expect(reply.status).toBe(200);
    const ask = pendingAskData.parse(reply.body);
    expect(ask).toMatchObject({ askId: ids.twoQuestions, status: 'pending', timeoutHours: 24 });
    expect(ask.expiresAt - ask.createdAt).toBe(24 * HOUR);
    expect(ask.createdAt).toBeLessThan(START);
  });

  it('GetPendingAsk of an unknown id: 404 ErrorResponse', async () => {
    const { call } = setup();
    const reply = await call('GET', `${API}/nope`);
    expect(reply.status).toBe(404);
    expect(errorResponse.parse(reply.body)).toMatchObject({ error: 'Not Found', status: 404 });
  });

  it('ResolvePendingAsk: {response} → {success: true}; the ask is resolved with it', async () => {
    const { call, clock } = setup();
    clock.advance(1000);
    const reply = await call('POST', `${API}/${ids.contract}/resolve`, {
      response: 'Push back for 1×.',
    });
    expect(reply.status).toBe(200);
    const result = resolveResponse.parse(reply.body);
    expect(result.success).toBe(true);
    expect(result.waitDurationMs).toBeGreaterThan(0);
    const ask = pendingAskData.parse((await call('GET', `${API}/${ids.contract}`)).body);
    expect(ask).toMatchObject({
      status: 'resolved',
      response: 'Push back for 1×.',
      resolvedAt: START + 1000,
    });
  });

  it('ResolvePendingAsk twice: 409 ErrorResponse, the first answer kept', async () => {
    const { call } = setup();
    await call('POST', `${API}/${ids.refund}/resolve`, { response: 'Approve it.' });
    const again = await call('POST', `${API}/${ids.refund}/resolve`, { response: 'Refuse.' });
    expect(again.status).toBe(409);
    expect(errorResponse.parse(again.body)).toMatchObject({
      error: 'Conflict',
      status: 409,
      errorCode: 'pending_ask_already_resolved',
    });
    const ask = pendingAskData.parse((await call('GET', `${API}/${ids.refund}`)).body);
    expect(ask.response).toBe('Approve it.');
  });

  it('an ask past expiresAt reads as expired and cannot be resolved (409)', async () => {
    const { call, clock } = setup();
    const before = pendingAskData.parse((await call('GET', `${API}/${ids.expiringSoon}`)).body);
    expect(before.status).toBe('pending');
    clock.set(before.expiresAt);
    const after = pendingAskData.parse((await call('GET', `${API}/${ids.expiringSoon}`)).body);
    expect(after.status).toBe('expired');
    const reply = await call('POST', `${API}/${ids.expiringSoon}/resolve`, { response: 'Ship it' });
    expect(reply.status).toBe(409);
    expect(errorResponse.parse(reply.body).errorCode).toBe('pending_ask_expired');
  });

  it('RegisterPendingAsk: the request schema as documented → {success, askId}; the ask is listed', async () => {
    const { call } = setup({ seed: 'empty' });
    const reply = await call('POST', API, {
      runId: 'run-1',
      workflowId: 'wf-1',
      agentName: 'Support triage',
      questions: ['Escalate ticket #77?'],
      timeoutHours: 2,
      userChannels: [{ type: 'interactive' }],
      taskFields: [{ name: 'escalate', type: 'boolean', required: true, label: 'Escalate' }],
      requestId: 'req-1',
    });
    expect(reply.status).toBe(200);
    const registered = registerResponse.parse(reply.body);
    expect(registered.success).toBe(true);
    const ask = pendingAskData.parse((await call('GET', `${API}/${registered.askId}`)).body);
    expect(ask).toMatchObject({ runId: 'run-1', agentName: 'Support triage', timeoutHours: 2 });
    const repeat = registerResponse.parse(
      (
        await call('POST', API, {
          runId: 'run-1',
          workflowId: 'wf-1',
          agentName: 'Support triage',
          questions: ['Escalate ticket #77?'],
          userChannels: [{ type: 'interactive' }],
          requestId: 'req-1',
        })
      ).body,
    );
    expect(repeat.askId).toBe(registered.askId);
    expect(listResponse.parse((await call('GET', API)).body).asks).toHaveLength(1);
  });

  it('RegisterPendingAsk with no question reports failure in the body (HTTP 200)', async () => {
    const { call } = setup({ seed: 'empty' });
    const reply = await call('POST', API, {
      runId: 'r',
      workflowId: 'w',
      agentName: 'a',
      questions: [],
      userChannels: [],
    });
    expect(reply.status).toBe(200);
    expect(registerResponse.parse(reply.body)).toMatchObject({ success: false });
  });
});

describe('Vertesia mock: the x-api-version header and strict bodies', () => {
  it.each([
    ['GET', API],
    ['GET', `${API}/${ids.contract}`],
    ['POST', `${API}/${ids.contract}/resolve`],
  ])('%s %s without x-api-version: 400 ErrorResponse', async (method, path) => {
    const { raw } = setup();
    const reply = await raw(method, path, method === 'POST' ? { response: 'x' } : undefined, {
      authorization: `Bearer ${KEY}`,
    });
    expect(reply.status).toBe(400);
    expect(errorResponse.parse(reply.body)).toMatchObject({
      error: 'Bad Request',
      status: 400,
      errorCode: 'missing_api_version',
    });
  });

  it('a blank x-api-version is missing (the document: pattern \\S)', async () => {
    const { call } = setup();
    expect((await call('GET', API, undefined, { 'x-api-version': '  ' })).status).toBe(400);
  });

  it('an unknown property in the resolve body: 400 "Request validation failed." naming it', async () => {
    const { call } = setup();
    const reply = await call('POST', `${API}/${ids.contract}/resolve`, {
      response: 'Accept.',
      valid_for_seconds: 60,
    });
    expect(reply.status).toBe(400);
    const body = errorResponse.parse(reply.body);
    // The document's 4XX example, word for word, plus the optional details.
    expect({ error: body.error, status: body.status, message: body.message }).toEqual({
      error: 'Bad Request',
      status: 400,
      message: 'Request validation failed.',
    });
    expect(body.details).toContain('valid_for_seconds');
    const ask = pendingAskData.parse((await call('GET', `${API}/${ids.contract}`)).body);
    expect(ask.status).toBe('pending');
  });

  it('an older API version drops unknown properties instead', async () => {
    const { call } = setup();
    const reply = await call(
      'POST',
      `${API}/${ids.contract}/resolve`,
      { response: 'Accept.', extra: true },
      { 'x-api-version': '20250101' },
    );
    expect(reply.status).toBe(200);
  });

  it('unknown properties in nested register objects are refused too', async () => {
    const { call } = setup({ seed: 'empty' });
    const reply = await call('POST', API, {
      runId: 'r',
      workflowId: 'w',
      agentName: 'a',
      questions: ['q'],
      userChannels: [{ type: 'interactive', color: 'blue' }],
    });
    expect(reply.status).toBe(400);
    expect(errorResponse.parse(reply.body).details).toMatch(/color/);
  });

  it('resolve without a response, or with a non-JSON body: 400', async () => {
    const { call } = setup();
    expect((await call('POST', `${API}/${ids.contract}/resolve`, {})).status).toBe(400);
    expect((await call('POST', `${API}/${ids.contract}/resolve`, 'not json')).status).toBe(400);
  });

  it('without the bearer key: 401 ErrorResponse; with another key: 401', async () => {
    const { raw } = setup();
    const none = await raw('GET', API, undefined, { 'x-api-version': VERTESIA_API_VERSION });
    expect(none.status).toBe(401);
    expect(errorResponse.parse(none.body).status).toBe(401);
    const wrong = await raw('GET', API, undefined, {
      'x-api-version': VERTESIA_API_VERSION,
      authorization: 'Bearer other',
    });
    expect(wrong.status).toBe(401);
  });

  it('a method the path does not have: 405 with Allow', async () => {
    const { call } = setup();
    const reply = await call('DELETE', `${API}/${ids.contract}`);
    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')).toBe('GET');
    expect(errorResponse.parse(reply.body).status).toBe(405);
  });
});

describe('Vertesia mock: faults and control', () => {
  it('unsuccessful: HTTP 200 with {success: false, error}; the ask stays pending', async () => {
    const { call } = setup();
    await call('POST', '/__mock/faults', { kind: 'unsuccessful', match: { path: '/resolve' } });
    const reply = await call('POST', `${API}/${ids.contract}/resolve`, { response: 'Accept.' });
    expect(reply.status).toBe(200);
    const result = resolveResponse.parse(reply.body);
    expect(result.success).toBe(false);
    expect(result.error).toBeTruthy();
    expect(pendingAskData.parse((await call('GET', `${API}/${ids.contract}`)).body).status).toBe(
      'pending',
    );
    // One request only; the next resolve goes through.
    expect(
      (await call('POST', `${API}/${ids.contract}/resolve`, { response: 'Accept.' })).status,
    ).toBe(200);
  });

  it('status 500 without a message is the document’s 500 example', async () => {
    const { call } = setup();
    await call('POST', '/__mock/faults', { kind: 'status', status: 500 });
    const reply = await call('GET', API);
    expect(reply.status).toBe(500);
    expect(reply.body).toEqual({
      error: 'Internal Server Error',
      status: 500,
      message: 'Internal server error.',
    });
  });

  it('corrupt damages one ask of the list; the others still parse', async () => {
    const { call } = setup();
    await call('POST', '/__mock/faults', { kind: 'corrupt' });
    const { asks } = (await call<{ asks: unknown[] }>('GET', API)).body;
    const bad = asks.filter((ask) => !pendingAskData.safeParse(ask).success);
    expect(bad).toHaveLength(1);
  });

  it('html, malformed and drop: what a proxy or the network does', async () => {
    const { call, mock } = setup();
    await call('POST', '/__mock/faults', { kind: 'html' });
    expect((await call('GET', API)).headers.get('content-type')).toContain('text/html');
    await call('POST', '/__mock/faults', { kind: 'malformed' });
    const malformed = await call('GET', API);
    expect(() => JSON.parse(malformed.text)).toThrow();
    await call('POST', '/__mock/faults', { kind: 'drop' });
    const dropped = await mock.app.request(API, { headers: HEADERS });
    expect(dropped.type).toBe('error');
  });

  it('someone else resolves through the control surface; the API then answers 409', async () => {
    const { call } = setup();
    const other = await call('POST', `/__mock/asks/${ids.twoQuestions}/resolve`, {
      response: 'eu1; Dana',
    });
    expect(other.status).toBe(200);
    const reply = await call('POST', `${API}/${ids.twoQuestions}/resolve`, { response: 'us1' });
    expect(reply.status).toBe(409);
  });

  it('tenants do not share asks, clocks or faults', async () => {
    const { call } = setup();
    const a = { 'x-mock-tenant': 'a' };
    await call('POST', `${API}/${ids.contract}/resolve`, { response: 'Accept.' }, a);
    await call('POST', '/__mock/clock', { advanceMs: 30 * HOUR }, a);
    await call('POST', '/__mock/faults', { kind: 'status', status: 503 }, a);
    const mine = await call('GET', `${API}/${ids.contract}`);
    expect(pendingAskData.parse(mine.body).status).toBe('pending');
    expect((await call('GET', `${API}/${ids.contract}`, undefined, a)).status).toBe(503);
    const theirs = pendingAskData.parse(
      (await call('GET', `${API}/${ids.twoQuestions}`, undefined, a)).body,
    );
    expect(theirs.status).toBe('expired');
  });

  it('create, expire, delete, reset and the simulator tick', async () => {
    const { call } = setup({ seed: 'empty' });
    const created = await call<{ ask: { askId: string } }>('POST', '/__mock/asks', {
      askId: 'ask-1',
      questions: ['A?', 'B?'],
      agentName: 'Tester',
    });
    expect(created.status).toBe(201);
    expect((await call('POST', '/__mock/asks', { askId: 'ask-1', questions: ['A?'] })).status).toBe(
      409,
    );
    const expired = await call('POST', '/__mock/asks/ask-1/expire');
    expect(pendingAskData.parse((expired.body as { ask: unknown }).ask).status).toBe('expired');
    const tick = await call<{ ask: unknown }>('POST', '/__mock/simulator/tick');
    expect(pendingAskData.parse(tick.body.ask).status).toBe('pending');
    expect(listResponse.parse((await call('GET', API)).body).asks).toHaveLength(2);
    expect((await call('DELETE', '/__mock/asks/ask-1')).status).toBe(200);
    expect((await call('POST', '/__mock/reset', { seed: 'demo' })).status).toBe(200);
    expect(listResponse.parse((await call('GET', API)).body).asks.length).toBeGreaterThan(5);
  });
});
