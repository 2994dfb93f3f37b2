import { readFileSync } from 'node:fs';
import { QueryClient } from '@tanstack/react-query';
import { matchPath } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { INBOX_ROUTE, QUESTIONS_PATH } from '@/config/routes';
import { parseRuntimeConfig } from '@/config/runtime-config';
import { createQuestionQueries } from '@/features/questions/api/queries';
import {
  createReflexioClient,
  createReflexioSource,
} from '@/features/questions/sources/reflexio/client';
import { statusFilters } from '@/features/questions/utils/filters';
import { questionPath } from '@/features/questions/utils/paths';
import { statusMeta } from '@/features/questions/utils/question-policy';
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
  const client = createReflexioClient({
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
  it('knows the same status filters as the app', () => {
    const listed = /const statuses = (\[[^\]]*\]);/.exec(script)?.[1];
    expect(JSON.parse((listed ?? '[]').replaceAll("'", '"'))).toEqual(statusFilters);
    expect(statusFilters).toEqual([...Object.keys(statusMeta), 'all']);
  });

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

  it('preloads the code that reads several sources when config.json names several, not one', async () => {
    const meta = document.createElement('meta');
    meta.name = 'qi-sources-code';
    meta.content = 'assets/inbox-source-a.js assets/system-sources-b.js';
    document.head.append(meta);
    const preloads = () =>
      [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map(
        (link) => new URL(link.href).pathname,
      );
    try {
      await runPrefetch('/questions', {
        sources: [{ id: 'reflexio', kind: 'reflexio', apiBaseUrl: 'api' }],
      });
      expect(preloads()).toEqual([]);
      await runPrefetch('/questions', {
        sources: [
          { id: 'reflexio', kind: 'reflexio', apiBaseUrl: 'api' },
          { id: 'bilby', kind: 'bilby', apiBaseUrl: 'bilby/api/v1' },
        ],
      });
      expect(preloads()).toEqual(['/assets/inbox-source-a.js', '/assets/system-sources-b.js']);
    } finally {
      meta.remove();
      for (const link of document.head.querySelectorAll('link[rel="modulepreload"]')) link.remove();
    }
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

  // Both sides of one rule set: prefetch.js asks for nothing with a config.json the app refuses.
  const configs: Array<[string, unknown]> = [
    ['an empty file', {}],
    ['a Latin-1 header value', { headers: { 'X-Team': 'Équipe ÿ' } }],
    ['an absolute API address', { apiBaseUrl: 'https://api.example.com/v1' }],
    [
      'every setting',
      {
        apiBaseUrl: 'api',
        pollIntervalMs: 2000,
        notifyPollIntervalMs: 15_000,
        auth: { mode: 'proxy', signInUrl: '/in' },
        headers: {},
        embed: true,
      },
    ],
    ['a header value with a line break', { headers: { 'X-Team': 'a\r\nX-Evil: 1' } }],
    ['a header value beyond Latin-1', { headers: { 'X-Team': 'Ωmega' } }],
    ['an emoji header value', { headers: { 'X-Team': '🙂' } }],
    ['a NUL in a header value', { headers: { 'X-Team': 'a\u0000b' } }],
    ['a header value that is not text', { headers: { 'X-Team': 1 } }],
    ['an Authorization header', { headers: { authorization: 'Bearer x' } }],
    ['a bad header name', { headers: { 'X Team': 'a' } }],
    ['headers that are not an object', { headers: ['X-Team'] }],
    ['null headers', { headers: null }],
    ['an empty API address', { apiBaseUrl: '' }],
    ['a javascript: API address', { apiBaseUrl: 'javascript:alert(1)' }],
    ['an API address with user:password', { apiBaseUrl: 'https://u:p@api.example.com/' }],
    ['an API address that is not text', { apiBaseUrl: 5 }],
    ['a poll interval too short', { pollIntervalMs: 10 }],
    ['a poll interval that is not whole', { pollIntervalMs: 2000.5 }],
    ['a hidden-tab poll interval under 15 s', { notifyPollIntervalMs: 14_999 }],
    ['a hidden-tab poll interval that is not a number', { notifyPollIntervalMs: '60000' }],
    ['an unknown auth mode', { auth: { mode: 'magic' } }],
    ['an unknown auth key', { auth: { mode: 'proxy', extra: 1 } }],
    ['an empty sign-in address', { auth: { signInUrl: '' } }],
    ['embed that is not true or false', { embed: 'yes' }],
    ['an unknown key', { apiBaseURL: 'api' }],
    [
      'three sources',
      {
        sources: [
          { id: 'reflexio', kind: 'reflexio', apiBaseUrl: 'api' },
          {
            id: 'v',
            kind: 'vertesia',
            label: 'Vertesia EU',
            apiBaseUrl: 'v/api/v1',
            apiVersion: '20260803',
          },
          { id: 'bilby', kind: 'bilby', apiBaseUrl: 'bilby/api/v1', organizationId: 'org' },
        ],
      },
    ],
    ['no Reflexio source', { sources: [{ id: 'b', kind: 'bilby', apiBaseUrl: 'b' }] }],
    ['no sources', { sources: [] }],
    [
      'sources and apiBaseUrl',
      { apiBaseUrl: 'api', sources: [{ id: 'r', kind: 'reflexio', apiBaseUrl: 'api' }] },
    ],
    [
      'two sources with one id',
      {
        sources: [
          { id: 'r', kind: 'reflexio', apiBaseUrl: 'a' },
          { id: 'r', kind: 'bilby', apiBaseUrl: 'b' },
        ],
      },
    ],
    ['an unknown kind of source', { sources: [{ id: 'r', kind: 'jira', apiBaseUrl: 'a' }] }],
    ['a source id with a slash', { sources: [{ id: 'a/b', kind: 'reflexio', apiBaseUrl: 'a' }] }],
    [
      'a Vertesia key on a Bilby source',
      { sources: [{ id: 'b', kind: 'bilby', apiBaseUrl: 'b', apiVersion: '20260803' }] },
    ],
    ['a source without an address', { sources: [{ id: 'r', kind: 'reflexio' }] }],
    [
      'a source with an empty label',
      { sources: [{ id: 'r', kind: 'reflexio', apiBaseUrl: 'a', label: '' }] },
    ],
    [
      'a bad Vertesia API version',
      { sources: [{ id: 'v', kind: 'vertesia', apiBaseUrl: 'v', apiVersion: 'latest' }] },
    ],
    [
      'a source whose key the server adds',
      { sources: [{ id: 'r', kind: 'reflexio', apiBaseUrl: 'a', auth: 'server' }] },
    ],
    [
      'an unknown source auth',
      { sources: [{ id: 'r', kind: 'reflexio', apiBaseUrl: 'a', auth: 'oauth' }] },
    ],
    ['null', null],
    ['an array', []],
  ];

  it.each(configs)('agrees with the app on %s', async (_, settings) => {
    const app = parseRuntimeConfig(settings);
    const { list } = await runPrefetch('/questions', settings);
    // Only a Reflexio source has a first list to ask for early.
    expect(list !== null).toBe(app.ok && app.config.apiBaseUrl !== null);
  });
});
