import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { getMockApi, mockControl, TEST_API_ROOT } from '@/test/mock-api';
import { NOT_APPLICABLE_ANSWER, type Question } from '../../api/schemas';
import { createReflexioClient, createReflexioSource } from './client';

function setup() {
  getMockApi();
  const client = createReflexioClient({ baseUrl: TEST_API_ROOT });
  return { client, source: createReflexioSource(client) };
}

async function firstPending(source: ReturnType<typeof setup>['source'], toolName = 'ask_human') {
  const { questions } = await source.list({ status: 'pending', limit: 500 });
  const question = questions.find((q) => q.toolName === toolName);
  if (!question) throw new Error(`the seed has no pending ${toolName} question`);
  return question;
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

describe('Reflexio source against the mock backend', () => {
  it('lists pending questions, newest first, mapped to the portal record', async () => {
    const { source } = setup();
    const list = await source.list({ status: 'pending', limit: 500 });
    expect(list.questions.length).toBeGreaterThan(3);
    expect(list.unreadable).toEqual([]);
    expect(list.truncated).toBe(false);
    expect(new Set(list.questions.map((q) => q.status))).toEqual(new Set(['pending']));
    const created = list.questions.map((q) => q.createdAt ?? 0);
    expect(created).toEqual([...created].sort((a, b) => b - a));
    const question = list.questions[0] as Question;
    expect(question.id).toMatch(/^ptc_[0-9a-f]{32}$/);
    expect(typeof question.expiresAt).toBe('number');
  });

  it('reports a list cut at the limit as truncated', async () => {
    const { source } = setup();
    const list = await source.list({ limit: 5 });
    expect(list.questions).toHaveLength(5);
    expect(list.truncated).toBe(true);
  });

  it('answers as the API docs example does: {"result": {"answer": "AWS ECS"}}', async () => {
    const { source } = setup();
    const pending = await firstPending(source);
    const resolved = await source.resolve(pending.id, { result: { answer: 'AWS ECS' } });
    expect(resolved.status).toBe('resolved');
    expect(resolved.result).toEqual({ answer: 'AWS ECS' });
    expect(resolved.resolvedAt).not.toBeNull();
    // Re-sending the same answer is idempotent on the server: a success, not a conflict.
    const again = await source.resolve(pending.id, { result: { answer: 'AWS ECS' } });
    expect(again.status).toBe('resolved');
    const conflict = await failure(source.resolve(pending.id, { result: { answer: 'GCP' } }));
    expect(conflict.kind).toBe('conflict');
    expect(conflict.detail).toBe('Pending tool call already resolved with a different result');
  });

  it('sends a raw result and valid_for_seconds, and edits the answer', async () => {
    const { source } = setup();
    const pending = await firstPending(source);
    const resolved = await source.resolve(pending.id, {
      result: { answer: 'AWS ECS', confidence: 0.9 },
      validForSeconds: 3600,
    });
    expect(resolved.result).toEqual({ answer: 'AWS ECS', confidence: 0.9 });
    expect((resolved.validUntil ?? 0) - (resolved.resolvedAt ?? 0)).toBe(3_600_000);
    const edited = await source.updateAnswer(pending.id, { answer: '  Google Cloud Run  ' });
    expect(edited.result).toEqual({ answer: 'Google Cloud Run' });
  });

  it('marks not applicable with the exact payload, and cancels', async () => {
    const { source } = setup();
    const pending = await firstPending(source);
    const na = await source.markNotApplicable(pending.id, {});
    expect(na.result).toEqual({ answer: NOT_APPLICABLE_ANSWER, not_applicable: true });
    const other = await firstPending(source);
    const cancelled = await source.cancel(other.id);
    expect(cancelled.status).toBe('cancelled');
    expect((await source.cancel(other.id)).status).toBe('cancelled');
  });

  it('turns FastAPI errors into typed errors with the server’s words', async () => {
    const { source, client } = setup();
    const missing = await failure(source.get('ptc_00000000000000000000000000000000'));
    expect(missing).toMatchObject({
      kind: 'not-found',
      status: 404,
      detail: 'Pending tool call not found',
    });

    const pending = await firstPending(source);
    const notResolved = await failure(source.updateAnswer(pending.id, { answer: 'x' }));
    expect(notResolved).toMatchObject({ kind: 'conflict', detail: 'Pending tool call is pending' });

    const { questions: resolved } = await source.list({ status: 'resolved', limit: 500 });
    const answered = resolved.find((q) => q.toolName === 'ask_human');
    const blank = await failure(
      client.request(`pending_tool_calls/${answered?.id}/answer`, {
        method: 'PATCH',
        body: { answer: '   ' },
      }),
    );
    expect(blank).toMatchObject({
      kind: 'validation',
      status: 422,
      detail: 'Answer cannot be empty',
    });

    const listShaped = await failure(
      client.request(`pending_tool_calls/${pending.id}/resolve`, {
        method: 'POST',
        body: { result: { answer: 'x' }, valid_for_seconds: 0, extra: true },
      }),
    );
    expect(listShaped.kind).toBe('validation');
    expect(listShaped.fieldErrors.map((e) => e.field).sort()).toEqual([
      'extra',
      'valid_for_seconds',
    ]);

    const badLimit = await failure(client.request('pending_tool_calls', { query: { limit: 501 } }));
    expect(badLimit.fieldErrors[0]?.field).toBe('limit');
  });

  it('refuses to send what the API would reject', async () => {
    const { source } = setup();
    const pending = await firstPending(source);
    await expect(source.updateAnswer(pending.id, { answer: '  ' })).rejects.toThrow();
    await expect(
      source.resolve(pending.id, { result: { answer: 'x' }, validForSeconds: 1.5 }),
    ).rejects.toThrow();
  });
});

describe('API faults, injected into the mock', () => {
  const cases: Array<[string, Record<string, unknown>, Partial<ApiError>]> = [
    [
      '401',
      { kind: 'status', status: 401, detail: 'Not authenticated' },
      { kind: 'auth', status: 401 },
    ],
    [
      '403 from the API',
      { kind: 'status', status: 403, detail: 'Forbidden: Suspicious user agent' },
      { kind: 'forbidden' },
    ],
    ['413', { kind: 'status', status: 413, detail: null }, { kind: 'too-large', status: 413 }],
    [
      '429',
      { kind: 'status', status: 429, detail: 'Too many requests', headers: { 'Retry-After': '7' } },
      { kind: 'rate-limited', retryAfterMs: 7000 },
    ],
    [
      '500',
      { kind: 'status', status: 500, detail: 'Internal Server Error' },
      { kind: 'server', status: 500 },
    ],
    ['502', { kind: 'status', status: 502, detail: null }, { kind: 'unavailable', status: 502 }],
    [
      '503 storage',
      {
        kind: 'status',
        status: 503,
        detail: 'Pending tool calls are not supported by the configured storage backend',
      },
      {
        kind: 'unavailable',
        detail: 'Pending tool calls are not supported by the configured storage backend',
      },
    ],
    ['504', { kind: 'status', status: 504, detail: null }, { kind: 'timeout', status: 504 }],
    ['an HTML sign-in page', { kind: 'html' }, { kind: 'auth' }],
    ['a redirect to sign in', { kind: 'redirect' }, { kind: 'auth' }],
    ['malformed JSON', { kind: 'malformed' }, { kind: 'bad-response' }],
    [
      'a bare 404 (wrong API address)',
      { kind: 'status', status: 404, detail: null },
      { kind: 'bad-response', status: 404 },
    ],
    [
      'FastAPI’s route-miss 404',
      { kind: 'status', status: 404, detail: 'Not Found' },
      { kind: 'bad-response', status: 404 },
    ],
    ['a dropped connection', { kind: 'drop' }, { kind: 'network', status: 0 }],
  ];

  it.each(cases)('%s', async (_name, fault, expected) => {
    const { source } = setup();
    await mockControl('faults', { count: 1, ...fault });
    const error = await failure(source.list({ status: 'pending', limit: 500 }));
    expect(error).toMatchObject(expected);
    // The fault is spent: the next request succeeds.
    await expect(source.list({ status: 'pending', limit: 500 })).resolves.toBeTruthy();
  });

  it('keeps the rest of a list when one record fails the schema', async () => {
    const { source } = setup();
    const healthy = await source.list({ status: 'pending', limit: 500 });
    await mockControl('faults', { kind: 'corrupt', count: 1 });
    const list = await source.list({ status: 'pending', limit: 500 });
    expect(list.unreadable).toHaveLength(1);
    expect(list.unreadable[0]?.id).toMatch(/^ptc_/);
    expect(list.questions).toHaveLength(healthy.questions.length - 1);
  });
});
