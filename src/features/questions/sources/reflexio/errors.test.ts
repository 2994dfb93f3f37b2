import { describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from '@/lib/api-client';
import { describeError } from '@/lib/describe-error';
import { createReflexioClient } from './client';
import { readReflexioError } from './errors';

function answering(status: number, body: unknown) {
  return async () =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe('readReflexioError', () => {
  it('reads a 422 list of field errors without FastAPI’s leading body/query', () => {
    const reading = readReflexioError(422, {
      detail: [
        { loc: ['body', 'answer'], msg: 'String should have at least 1 character' },
        { loc: ['query', 'limit'], msg: 'Input should be less than or equal to 500' },
      ],
    });
    expect(reading).toEqual({
      kind: 'validation',
      detail:
        'answer: String should have at least 1 character; limit: Input should be less than or equal to 500',
      fieldErrors: [
        { field: 'answer', message: 'String should have at least 1 character' },
        { field: 'limit', message: 'Input should be less than or equal to 500' },
      ],
      description: null,
    });
  });

  it('FastAPI’s own "Not Found" is a wrong API address; Reflexio’s own 404 is a missing question', () => {
    expect(readReflexioError(404, { detail: 'Not Found' })?.kind).toBe('bad-response');
    expect(readReflexioError(404, { detail: 'Pending tool call not found' })?.kind).toBe(
      'not-found',
    );
  });

  it('a body that is not FastAPI’s is not read: the status decides', () => {
    expect(readReflexioError(503, { error: 'Service Unavailable' })).toBeNull();
  });

  it('storage that cannot hold questions gets its own words, and no Try again', () => {
    const reading = readReflexioError(503, {
      detail: 'Pending tool calls are not supported by the configured storage backend',
    });
    expect(reading?.description).toMatchObject({
      title: 'This Reflexio server cannot hold questions',
      retryable: false,
    });
    expect(readReflexioError(503, { detail: 'Storage not configured' })?.description?.title).toBe(
      'Reflexio has no storage configured',
    );
  });
});

describe('the Reflexio client', () => {
  const baseUrl = 'https://reflexio.example/api/';

  it('hands describeError Reflexio’s words for a storage failure', async () => {
    const client = createReflexioClient({
      baseUrl,
      fetchImpl: answering(503, { detail: 'Storage not configured' }),
    });
    const error = await failure(client.request('pending_tool_calls'));
    expect(error.kind).toBe('unavailable');
    expect(describeError(error).title).toBe('Reflexio has no storage configured');
  });

  it('the generic client does not read FastAPI bodies: src/lib knows no system', async () => {
    const client = createApiClient({
      baseUrl,
      fetchImpl: answering(404, { detail: 'Pending tool call not found' }),
    });
    const error = await failure(client.request('pending_tool_calls/x'));
    expect(error.kind).toBe('bad-response');
    expect(error.detail).toBeNull();
    const reflexio = createReflexioClient({
      baseUrl,
      fetchImpl: answering(404, { detail: 'Pending tool call not found' }),
    });
    const own = await failure(reflexio.request('pending_tool_calls/x'));
    expect(own.kind).toBe('not-found');
    expect(own.detail).toBe('Pending tool call not found');
  });
});
