// Server rendering of the first screen (docs/server-rendering.md): the portal server calls
// `renderFirstScreen` for a page address and puts the HTML it returns into index.html's #root,
// with the lists it read, so the browser shows the rows before the app's code has run and
// main.tsx hydrates them. Built on its own (`vite build --ssr`, dist-ssr/); never in the browser.
import './zod-setup';
import { defaultShouldDehydrateQuery, dehydrate } from '@tanstack/react-query';
import { prerender } from 'react-dom/static';
import { matchPath, StaticRouter } from 'react-router';
import { loadEveryPart, RenderedPartsContext } from '@/components/load-boundary';
import { INBOX_ROUTE } from '@/config/routes';
import { loadRuntimeConfig, sourcesNeedingKeys } from '@/config/runtime-config';
import { createQuestionQueries, questionKeys } from '@/features/questions/api/queries';
import { parseFilters } from '@/features/questions/utils/filters';
import { createIntervalClock } from '@/lib/clock';
import { FIRST_SCREEN_VERSION, type FirstScreenState, serverViewOf } from '@/lib/first-screen';
import { AppProviders, basenameOf } from './app';
import { auditParts, snippetParts, teamParts } from './audit-parts';
import { AppRoutes } from './router';
import { createServices } from './services';

export interface FirstScreenInput {
  /** The page's address as the browser asked for it (through the proxy's public origin). */
  url: URL;
  /** The portal's address: the origin and the sub-path it is served under, ending in "/". */
  baseUrl: URL;
  /** A fetch into the portal itself, with the reviewer's own cookies and identity headers. */
  fetch: typeof fetch;
  /** Preferences the browser keeps in cookies (see first-screen.ts). */
  colorScheme: 'light' | 'dark' | null;
  density: 'comfortable' | 'compact';
  /** How long the lists may take before the page is sent without rows (the browser asks then). */
  timeoutMs: number;
  /**
   * Told once the page will be rendered if its lists come (the deployment and the address allow
   * it), before they are read: the portal sends the page's <head> then (server/render/), and the
   * lists are read once that is on its way.
   */
  onStart?: () => Promise<void> | void;
}

export type FirstScreen =
  | { rendered: true; html: string; state: FirstScreenState; problems: string[] }
  | { rendered: false; reason: string; problems?: string[] };

const never = () => () => {};

/** How long the page waits for a late system once the others' rows are there. */
const PARTIAL_GRACE_MS = 100;
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The lists the address asks for, rendered from the portal's components; null where it cannot. */
let partsLoaded: Promise<void> | null = null;

export async function renderFirstScreen(input: FirstScreenInput): Promise<FirstScreen> {
  partsLoaded ??= loadEveryPart();
  await partsLoaded;
  const loaded = await loadRuntimeConfig(input.baseUrl, input.fetch);
  if (!loaded.ok) return { rendered: false, reason: 'config' };
  const { config, baseUrl } = loaded;
  // The reviewer's keys live in their browser only (token mode): the server cannot read for them.
  if (sourcesNeedingKeys(config).length > 0) return { rendered: false, reason: 'token mode' };
  if (config.links === 'hash') return { rendered: false, reason: 'hash links' };
  const path = `/${input.url.pathname.slice(baseUrl.pathname.length)}`;
  if (!matchPath(INBOX_ROUTE, path)) return { rendered: false, reason: 'not the inbox' };
  await input.onStart?.();
  const services = createServices(config, baseUrl, { retries: false, fetchImpl: input.fetch });
  const { status } = parseFilters(input.url.searchParams);
  const queries = createQuestionQueries(services.source, services.queryClient);
  const lists = status === 'all' ? ['all' as const] : (['all', status] as const);
  let failed = false;
  const read = Promise.all(
    lists.map((list) => services.queryClient.fetchQuery(queries.list(list))),
  ).then(
    () => {},
    () => {
      failed = true;
    },
  );
  // A system that answers late holds the others' rows back no longer than it would in the
  // browser: once every list has the rows of the systems that answered (the rest named as still
  // loading), the page goes with them a moment later, and the browser reads the whole list again.
  const shown = () =>
    lists.every((list) => services.queryClient.getQueryData(queries.list(list).queryKey));
  let stopWatching = () => {};
  const partial = new Promise<void>((resolve) => {
    const check = () => shown() && resolve();
    stopWatching = services.queryClient.getQueryCache().subscribe(check);
    check();
  }).then(() => delay(PARTIAL_GRACE_MS));
  await Promise.race([read, partial, delay(input.timeoutMs)]);
  stopWatching();
  if (failed || !shown()) {
    services.queryClient.clear();
    return { rendered: false, reason: 'lists' };
  }
  const now = Date.now();
  // Each source's clock as the reads found it (their Date headers): the countdowns in the HTML go
  // by the question's own server, as the app's do.
  const offsets = Object.fromEntries(
    config.sources.map((source) => [source.id, services.serverTime.offsetMs(source.id)]),
  );
  const clock = {
    ...createIntervalClock(),
    now: () => now,
    offsetMs: (sourceKey: string) => offsets[sourceKey] ?? 0,
    subscribe: never,
    firstScreen: { at: now, offsets },
  };
  const shell = {
    embed: config.embed || ['1', 'true'].includes(input.url.searchParams.get('embed') ?? ''),
    tokens: services.tokens,
    audit: auditParts,
    team: teamParts,
    snippets: snippetParts,
  };
  const location = `${input.url.pathname}${input.url.search}`;
  const scheme = input.colorScheme;
  // The reviewer's scheme from their cookie; Mantine's own manager reads localStorage.
  const colorSchemeManager = {
    get: () => scheme ?? ('auto' as const),
    set: () => {},
    subscribe: () => {},
    unsubscribe: () => {},
    clear: () => {},
  };
  const problems: string[] = [];
  const parts = new Set<string>();
  const { prelude } = await prerender(
    <AppProviders
      config={config}
      services={services}
      shell={shell}
      clock={clock}
      serverView={serverViewOf({ colorScheme: scheme, density: input.density })}
      colorSchemeManager={colorSchemeManager}
    >
      <RenderedPartsContext value={parts}>
        <StaticRouter basename={basenameOf(baseUrl)} location={location}>
          <AppRoutes />
        </StaticRouter>
      </RenderedPartsContext>
    </AppProviders>,
    {
      // One piece of HTML, as renderToString makes: a boundary is never sent apart, to be moved in
      // place by a script (React outlines large ones by default).
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      // A part that fails on the server is left to the browser (React marks it so): said here.
      onError: (error: unknown) => {
        problems.push(error instanceof Error ? error.message : String(error));
      },
    },
  );
  const html = await new Response(prelude).text();
  // Everything is loaded before the render (loadEveryPart), so nothing is left for a script of
  // React's to fill in later; if something were, the page's CSP would refuse that script.
  if (html.includes('<script')) {
    services.queryClient.clear();
    return { rendered: false, reason: 'a part suspended', problems };
  }
  const state: FirstScreenState = {
    version: FIRST_SCREEN_VERSION,
    now,
    offsets,
    config: JSON.stringify(config),
    configText: loaded.text,
    parts: [...parts],
    embed: shell.embed,
    colorScheme: input.colorScheme,
    density: input.density,
    // Only the questions the HTML shows. What else the render touched is the server's, not the
    // reviewer's: the team's connection read 'absent' here (no EventSource on a server), and the
    // browser, taking that over, showed "Presence and claims need the portal server" under the
    // pointer of a reviewer clicking Claim, until its stream opened.
    queries: dehydrate(services.queryClient, {
      shouldDehydrateQuery: (query) =>
        query.queryKey[0] === questionKeys.all[0] && defaultShouldDehydrateQuery(query),
    }),
  };
  services.queryClient.clear();
  return { rendered: true, html, state, problems };
}

export { FIRST_SCREEN_ELEMENT_ID, serializeFirstScreen } from '@/lib/first-screen';
