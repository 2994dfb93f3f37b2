import { readFileSync } from 'node:fs';
import { QueryClient } from '@tanstack/react-query';
import { matchPath } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { INBOX_ROUTE, QUESTIONS_PATH } from '@/config/routes';
import { parseRuntimeConfig } from '@/config/runtime-config';
import { createQuestionQueries } from '@/features/questions/api/queries';
import { createReflexioSource } from '@/features/questions/api/requests';
import { questionPath } from '@/features/questions/utils/paths';
import { createApiClient } from '@/lib/api-client';
import { withPrefetchedList } from './prefetch';
import { apiRootUrl } from './services';

// Vitest runs from the project root.
const script = readFileSync('public/prefetch.js', 'utf8');

interface Seen {
  url: string;
  headers: Record<string, string>;
}

/** Runs public/prefetch.js at `path` with `settings` as config.json; returns what it fetched. */
async function runPrefetch(path: string, settings: unknown) {
  // index.html always has one (the proxy rewrites it for a sub-path).
  if (!document.querySelector('base')) {
    const base = document.createElement('base');
    base.href = '/';
    document.head.append(base);
  }
  const seen: Seen[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    seen.push({ url: String(input), headers: { ...(init?.headers as Record<string, string>) } });
    const body = String(input).endsWith('config.json') ? settings : { pending_tool_calls: [] };
    return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
  });
  window.history.replaceState(null, '', path);
  new Function(script)();
  const list = await window.__questionsInboxPrefetch?.list;
  return { seen, list };
}

/** What the app itself asks for first on the list page. */
async function appRequest(settings: unknown, status: 'pending' | 'resolved' | 'all') {
  const parsed = parseRuntimeConfig(settings);
  if (!parsed.ok) throw new Error(parsed.issues.join('; '));
  const seen: Seen[] = [];
  const client = createApiClient({
    baseUrl: apiRootUrl(parsed.config, new URL(document.baseURI)),
    headers: () => ({ ...parsed.config.headers }),
    fetchImpl: async (input, init) => {
      seen.push({ url: String(input), headers: { ...(init?.headers as Record<string, string>) } });
      return new Response('{"pending_tool_calls":[]}', {
        headers: { 'content-type': 'application/json' },
      });
    },
  });
  // The app's own first-list query: its limit and status mapping, not a copy of them.
  const queryClient = new QueryClient();
  await queryClient.fetchQuery(
    createQuestionQueries(createReflexioSource(client), queryClient).list(status),
  );
  return seen[0];
}

afterEach(() => {
  vi.unstubAllGlobals();
  delete window.__questionsInboxPrefetch;
  window.history.replaceState(null, '', '/');
});

describe('public/prefetch.js', () => {
  it.each([
    ['/questions', {}, 'pending'],
    [
      '/questions?status=resolved&q=x',
      { apiBaseUrl: 'reflexio/api/', headers: { 'X-Team': 'a' } },
      'resolved',
    ],
    ['/questions/ptc_1?status=all', { apiBaseUrl: 'https://api.example.com/v1' }, 'all'],
    ['/questions?status=nonsense', {}, 'pending'],
  ] as const)(
    'asks for exactly what the app asks for first at %s',
    async (path, settings, status) => {
      const { seen, list } = await runPrefetch(path, settings);
      expect(seen[0]?.url).toBe(new URL('config.json', document.baseURI).href);
      const app = await appRequest(settings, status);
      expect(list).toMatchObject({ url: app?.url, headers: app?.headers });
    },
  );

  it('prefetches a list on exactly the addresses the router opens the inbox at', async () => {
    const paths = [
      QUESTIONS_PATH,
      `${QUESTIONS_PATH}/`,
      questionPath('ptc_1'),
      `${questionPath('ptc_1')}/`,
      `${questionPath('ptc_1')}/more`,
      `${QUESTIONS_PATH}x`,
      '/',
      '/elsewhere',
    ];
    for (const path of paths) {
      const { list } = await runPrefetch(path, {});
      expect({ path, prefetched: list !== null }).toEqual({
        path,
        prefetched: matchPath(INBOX_ROUTE, path) !== null,
      });
    }
  });

  it('prefetches no list in token mode or away from the list page', async () => {
    expect((await runPrefetch('/questions', { auth: { mode: 'token' } })).list).toBeNull();
    expect((await runPrefetch('/elsewhere', {})).list).toBeNull();
  });

  it('hands the prefetched answer to the first matching request only', async () => {
    const { seen, list } = await runPrefetch('/questions', {});
    expect(seen).toHaveLength(2);
    const real = vi.fn(async () => new Response('{}'));
    const fetchWithPrefetch = withPrefetchedList(real);
    const init = { method: 'GET', headers: { ...list?.headers } };
    await fetchWithPrefetch(list?.url ?? '', init);
    expect(real).not.toHaveBeenCalled();
    await fetchWithPrefetch(list?.url ?? '', init);
    expect(real).toHaveBeenCalledTimes(1);
  });
});
