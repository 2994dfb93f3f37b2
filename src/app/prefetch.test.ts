import { readFileSync } from 'node:fs';
import { QueryClient } from '@tanstack/react-query';
import { matchPath } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { INBOX_ROUTE, QUESTIONS_PATH } from '@/config/routes';
import { parseRuntimeConfig } from '@/config/runtime-config';
import { createQuestionQueries } from '@/features/questions/api/queries';
import { type StatusFilter, statusFilters } from '@/features/questions/utils/filters';
import {
  firstListStatus,
  readListsCut,
  rememberListsCut,
} from '@/features/questions/utils/lists-cut';
import { questionPath } from '@/features/questions/utils/paths';
import { statusMeta } from '@/features/questions/utils/question-policy';
import { withPrefetchedList } from './prefetch';
import { apiRootUrl, createServices } from './services';

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
    const body = String(input).endsWith('config.json') ? settings : {};
    return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
  });
  window.history.replaceState(null, '', path);
  new Function(script)();
  const lists = (await window.__questionsInboxPrefetch?.lists) ?? [];
  return { seen, lists: lists.map(({ url, headers }) => ({ url, headers })) };
}

/**
 * What the app itself asks each system for first on the list page, through its own services (the
 * lazily loaded systems included) and its own choice of first list (src/app/main.tsx; the same
 * rule as useInboxData's, see src/features/questions/components/list/first-load.test.tsx).
 */
async function appRequests(settings: unknown, view: StatusFilter) {
  const parsed = parseRuntimeConfig(settings);
  if (!parsed.ok) throw new Error(parsed.issues.join('; '));
  const seen: Seen[] = [];
  // Asked as if nothing had been prefetched.
  delete window.__questionsInboxPrefetch;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    seen.push({ url: String(input), headers: { ...(init?.headers as Record<string, string>) } });
    return new Response('{}', { headers: { 'content-type': 'application/json' } });
  });
  const services = createServices(parsed.config, new URL(document.baseURI), { retries: false });
  const queryClient = new QueryClient();
  await queryClient
    .fetchQuery(createQuestionQueries(services.source, queryClient).list(firstListStatus(view)))
    .catch(() => {});
  vi.unstubAllGlobals();
  // Each system's first request (a system whose list is unreadable asks nothing more).
  return parsed.config.sources.map((source) => {
    const root = apiRootUrl(source, new URL(document.baseURI)).href;
    return seen.find((request) => request.url.startsWith(root));
  });
}

const threeSources = {
  sources: [
    { id: 'reflexio', kind: 'reflexio', apiBaseUrl: 'api' },
    { id: 'vertesia', kind: 'vertesia', apiBaseUrl: 'vertesia/api/v1' },
    { id: 'bilby', kind: 'bilby', apiBaseUrl: 'bilby/api/v1', organizationId: 'org 1' },
  ],
  headers: { 'X-Team': 'a' },
};

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
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
    ['/questions', threeSources, 'pending'],
    [
      '/questions?status=expired',
      {
        sources: [
          {
            id: 'v',
            kind: 'vertesia',
            apiBaseUrl: 'https://v.example/api/v1',
            apiVersion: '20270101',
          },
          { id: 'r', kind: 'reflexio', apiBaseUrl: 'r' },
        ],
      },
      'expired',
    ],
  ] as const)(
    'asks each system for exactly what the app asks for first at %s (%j)',
    async (path, settings, status) => {
      // An inbox whose unfiltered list held everything last time: each system's unfiltered list.
      const whole = await runPrefetch(path, settings);
      expect(whole.seen[0]?.url).toBe(new URL('config.json', document.baseURI).href);
      expect(whole.lists).toEqual(await appRequests(settings, status));
      // One cut at the API's limit last time: the view's own list first.
      localStorage.setItem(`qi:lists-cut:${new URL(document.baseURI).pathname}`, '1');
      const cut = await runPrefetch(path, settings);
      expect(cut.lists).toEqual(await appRequests(settings, status));
      expect(cut.lists).toHaveLength(whole.lists.length);
    },
  );

  it('reads the same remembered cut as the app', () => {
    expect(readListsCut()).toBe(false);
    rememberListsCut(true);
    expect(localStorage.getItem(`qi:lists-cut:${new URL(document.baseURI).pathname}`)).toBe('1');
    expect(readListsCut()).toBe(true);
    rememberListsCut(false);
    expect(readListsCut()).toBe(false);
  });

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
      const { lists } = await runPrefetch(path, {});
      expect({ path, prefetched: lists.length === 1 }).toEqual({
        path,
        prefetched: matchPath(INBOX_ROUTE, path) !== null,
      });
    }
  });

  it('prefetches no list in token mode or away from the list page', async () => {
    expect((await runPrefetch('/questions', { auth: { mode: 'token' } })).lists).toEqual([]);
    expect((await runPrefetch('/elsewhere', {})).lists).toEqual([]);
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

  it('hands each prefetched answer to the first matching request only', async () => {
    const { seen, lists } = await runPrefetch('/questions', threeSources);
    expect(seen).toHaveLength(4);
    const real = vi.fn(async () => new Response('{}'));
    const fetchWithPrefetch = withPrefetchedList(real);
    for (const list of [...lists].reverse()) {
      const init = { method: 'GET', headers: { ...list.headers } };
      await fetchWithPrefetch(list.url, init);
      expect(real).not.toHaveBeenCalled();
    }
    const [first] = lists;
    await fetchWithPrefetch(first?.url ?? '', { method: 'GET', headers: { ...first?.headers } });
    expect(real).toHaveBeenCalledTimes(1);
  });

  it('asks again itself when the headers differ (a key the reviewer added since)', async () => {
    const { lists } = await runPrefetch('/questions', {});
    const real = vi.fn(async () => new Response('{}'));
    const [list] = lists;
    await withPrefetchedList(real)(list?.url ?? '', {
      method: 'GET',
      headers: { ...list?.headers, Authorization: 'Bearer k' },
    });
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
      'a response target and no per-person figures',
      { responseTargetMinutes: 7.5, insightsPerReviewer: false },
    ],
    ['a response target under a minute', { responseTargetMinutes: 0.5 }],
    ['a response target over a week', { responseTargetMinutes: 10_081 }],
    ['a response target that is not a number', { responseTargetMinutes: '15' }],
    ['insightsPerReviewer that is not true or false', { insightsPerReviewer: 'no' }],
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
    const { lists } = await runPrefetch('/questions', settings);
    // Every system of a config.json the app takes, none of one it refuses.
    expect(lists.length).toBe(app.ok ? app.config.sources.length : 0);
  });
});
