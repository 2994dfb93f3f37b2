import { describe, expect, it } from 'vitest';
import { ApiError, type ApiErrorKind } from './api-client';
import { createQueryClient, readRetryDelay, shouldRetryRead } from './query-client';
import { createSessionStore } from './session-store';

const error = (kind: ApiErrorKind, retryAfterMs: number | null = null) =>
  new ApiError({ kind, status: 0, method: 'GET', url: '/api/x', retryAfterMs });

describe('read retries', () => {
  it('retry what may pass (network, timeout, 5xx, 429) at most three times, never what will not', () => {
    for (const kind of ['network', 'timeout', 'unavailable', 'server', 'rate-limited'] as const) {
      expect(shouldRetryRead(0, error(kind))).toBe(true);
      expect(shouldRetryRead(3, error(kind))).toBe(false);
    }
    for (const kind of [
      'auth',
      'forbidden',
      'not-found',
      'conflict',
      'validation',
      'bad-response',
      'too-large',
    ] as const) {
      expect(shouldRetryRead(0, error(kind))).toBe(false);
    }
  });

  it('back off 1 s, 2 s, 4 s… capped at 30 s, or wait what Retry-After says', () => {
    expect([0, 1, 2, 10].map((attempt) => readRetryDelay(attempt, error('server')))).toEqual([
      1000, 2000, 4000, 30_000,
    ]);
    expect(readRetryDelay(0, error('rate-limited', 7000))).toBe(7000);
  });

  it('never retry writes, and end the session on a signed-out answer', () => {
    const session = createSessionStore();
    const client = createQueryClient(session);
    expect(client.getDefaultOptions().mutations?.retry).toBe(false);
    client
      .getMutationCache()
      .config.onError?.(
        error('auth'),
        undefined,
        undefined,
        undefined as never,
        undefined as never,
      );
    expect(session.get()).toBe('ended');
  });
});
