import { describe, expect, it } from 'vitest';
import type { PendingToolCallRecord } from './store';
import { harness } from './test-support';

/**
 * The curl examples of the Reflexio API reference (000_9158b3ab867e0f08.txt), sent as written:
 * same paths, headers and bodies, against a mock that requires the API key.
 */
const BASE = 'http://localhost';
const API_KEY = 'rflx_test_key';
const HEADERS = { 'User-Agent': 'my-agent-reflexio', Authorization: `Bearer ${API_KEY}` };
const JSON_HEADERS = { ...HEADERS, 'Content-Type': 'application/json' };
const ID = 'ptc_abc123';

async function setup() {
  const h = harness({ apiKey: API_KEY, seed: 'empty' });
  const created = await h.control('POST', '/__mock/questions', {
    id: ID,
    question: 'Which platform should the new ingestion service be deployed to?',
    answer_format: 'free text',
    tags: ['infra'],
  });
  expect(created.status).toBe(201);
  const curl = async (
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string,
  ) => {
    const response = await h.backend.app.request(`${BASE}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  return { h, curl };
}

const resolveBody = `{
  "result": {
    "answer": "AWS ECS"
  }
}
`;
const resolveWithConfidence = `{
  "result": {
    "answer": "AWS ECS",
    "confidence": 0.9
  }
}
`;

describe('API reference curl examples', () => {
  it('list_pending_tool_calls: GET ?status=pending&limit=50', async () => {
    const { curl } = await setup();
    const reply = await curl('GET', '/api/pending_tool_calls?status=pending&limit=50', HEADERS);
    expect(reply.status).toBe(200);
    const calls = reply.body.pending_tool_calls as PendingToolCallRecord[];
    expect(calls.map((c) => c.id)).toEqual([ID]);
  });

  it('get_pending_tool_call: GET /ptc_abc123', async () => {
    const { curl } = await setup();
    const reply = await curl('GET', `/api/pending_tool_calls/${ID}`, HEADERS);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ id: ID, status: 'pending', tool_name: 'ask_human' });
  });

  it('resolve_pending_tool_call: both bodies; the second conflicts once the first is stored', async () => {
    const { curl } = await setup();
    const first = await curl(
      'POST',
      `/api/pending_tool_calls/${ID}/resolve`,
      JSON_HEADERS,
      resolveBody,
    );
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'resolved', result: { answer: 'AWS ECS' } });
    const again = await curl(
      'POST',
      `/api/pending_tool_calls/${ID}/resolve`,
      JSON_HEADERS,
      resolveBody,
    );
    expect(again).toEqual(first);
    const richer = await curl(
      'POST',
      `/api/pending_tool_calls/${ID}/resolve`,
      JSON_HEADERS,
      resolveWithConfidence,
    );
    expect(richer).toEqual({
      status: 409,
      body: { detail: 'Pending tool call already resolved with a different result' },
    });
  });

  it('resolve with a raw result payload on a fresh call', async () => {
    const { curl } = await setup();
    const reply = await curl(
      'POST',
      `/api/pending_tool_calls/${ID}/resolve`,
      JSON_HEADERS,
      resolveWithConfidence,
    );
    expect(reply.status).toBe(200);
    expect(reply.body.result).toEqual({ answer: 'AWS ECS', confidence: 0.9 });
  });

  it('update_pending_tool_call_answer: PATCH {"answer": "Google Cloud Run"}', async () => {
    const { curl } = await setup();
    const early = await curl(
      'PATCH',
      `/api/pending_tool_calls/${ID}/answer`,
      JSON_HEADERS,
      '{\n  "answer": "Google Cloud Run"\n}\n',
    );
    expect(early).toEqual({ status: 409, body: { detail: 'Pending tool call is pending' } });
    await curl('POST', `/api/pending_tool_calls/${ID}/resolve`, JSON_HEADERS, resolveBody);
    const reply = await curl(
      'PATCH',
      `/api/pending_tool_calls/${ID}/answer`,
      JSON_HEADERS,
      '{\n  "answer": "Google Cloud Run"\n}\n',
    );
    expect(reply.status).toBe(200);
    expect(reply.body.result).toEqual({ answer: 'Google Cloud Run' });
  });

  it("mark_pending_tool_call_not_applicable: POST --data '{}'", async () => {
    const { curl } = await setup();
    const reply = await curl(
      'POST',
      `/api/pending_tool_calls/${ID}/not_applicable`,
      JSON_HEADERS,
      '{}',
    );
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      status: 'resolved',
      result: {
        answer: 'User does not have information about this question.',
        not_applicable: true,
      },
    });
  });

  it('cancel_pending_tool_call: POST without a body', async () => {
    const { curl } = await setup();
    const reply = await curl('POST', `/api/pending_tool_calls/${ID}/cancel`, HEADERS);
    expect(reply.status).toBe(200);
    expect(reply.body.status).toBe('cancelled');
    const resolveLater = await curl(
      'POST',
      `/api/pending_tool_calls/${ID}/resolve`,
      JSON_HEADERS,
      resolveBody,
    );
    expect(resolveLater).toEqual({
      status: 409,
      body: { detail: 'Pending tool call is cancelled' },
    });
  });

  it('every example without the API key is 401', async () => {
    const { curl } = await setup();
    const reply = await curl('GET', '/api/pending_tool_calls?status=pending&limit=50', {
      'User-Agent': 'my-agent-reflexio',
    });
    expect(reply).toEqual({ status: 401, body: { detail: 'Not authenticated' } });
  });
});
