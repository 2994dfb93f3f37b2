import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_ORIGIN, useExtraHandlers } from '@/test/mock-api';
import { teamKeys, teamQueries } from './queries';

describe('teamQueries.me', () => {
  let client: QueryClient;
  afterEach(() => client.clear());

  it('is asked once when the part that asked unmounts before the answer and another mounts', async () => {
    // As the app takes the server's HTML over, the rows that ask who this is are replaced (the
    // plain list by the virtualized one): the first request must not be cancelled and sent again.
    let asked = 0;
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    useExtraHandlers(
      http.get(`${TEST_ORIGIN}/portal-api/me`, async () => {
        asked += 1;
        await answered;
        return HttpResponse.json({ reviewer: { id: 'ana', name: 'Ana' }, identity: 'sso' });
      }),
    );
    client = new QueryClient();
    const first = new QueryObserver(client, teamQueries.me());
    const stopFirst = first.subscribe(() => {});
    await expect.poll(() => asked).toBe(1);
    stopFirst();
    const second = new QueryObserver(client, teamQueries.me());
    const stopSecond = second.subscribe(() => {});
    answer();
    await expect.poll(() => client.getQueryData(teamKeys.me())).toBe('ana');
    stopSecond();
    expect(asked).toBe(1);
  });
});
