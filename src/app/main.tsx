// Before any module asks for a chunk of the build (scripts/import-retry.ts).
import '@/lib/import-retry';
// The code a server-rendered page needs before it is taken over, asked for while this code runs.
import './first-screen-code';
// Before anything builds a zod schema.
import './zod-setup';
import './mantine-styles';
import '@/styles/theme.generated.css';
import '@/styles/app.css';
import { onlineManager } from '@tanstack/react-query';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { matchPath } from 'react-router';
import { loadParts } from '@/components/load-boundary';
import { resolveEmbed } from '@/config/embed';
import { INBOX_ROUTE } from '@/config/routes';
import { loadRuntimeConfig, type RuntimeConfig, sourcesNeedingKeys } from '@/config/runtime-config';
import { createQuestionQueries } from '@/features/questions/api/queries';
import { parseFilters } from '@/features/questions/utils/filters';
import { firstListStatus } from '@/features/questions/utils/lists-cut';
import { type FirstScreenState, markTakenOver, readFirstScreen } from '@/lib/first-screen';
import { markFirstScreenShown, whenIdle } from '@/lib/idle';
import { App } from './app';
import { configFetch, watchBlockedApi } from './prefetch';
import { apiRootUrl, createServices, type Services } from './services';

/** How long start-up waits for the first list before it shows the page without it. */
const FIRST_LIST_WAIT_MS = 250;
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
// The server's render of the first screen, when the portal server sent one (entry-server.tsx).
const firstScreen = readFirstScreen(document, whenIdle);
/**
 * The server's rows are on screen already (the app's modules run once the page is parsed): what
 * waits for them may load now, and the parts the server rendered load before the app renders, so
 * that it renders them at once (taking the HTML over in one pass: a part taken over later would
 * meet the page's state of that later moment) and what was clicked or pressed on them meanwhile
 * finds them. Asked for here, while config.json is read, not after it.
 */
const firstParts = firstScreen ? loadFirstScreenParts(firstScreen.parts) : null;
let made: Root | null = null;
/** The browser's own render, replacing whatever the page holds (the server's rows included). */
const root = () => {
  made ??= createRoot(container);
  return made;
};

/**
 * The app runs the page: what was clicked or pressed on the server's HTML before it did happens
 * now (first-screen-replay.ts, loaded only then); then public/first-screen.js stops holding clicks
 * and keys for it.
 */
async function takenOver() {
  // React Query learns of going offline from the browser's events, from now on: one that came
  // before (the page, or its first screen, came with the connection already gone) is read here,
  // or the page would say nothing of it until the connection came back.
  onlineManager.setOnline(navigator.onLine);
  const queue = window.__questionsInboxQueue;
  if (queue && queue.length > 0) {
    try {
      const { replayQueued } = await import('./first-screen-replay');
      await replayQueued(queue);
    } catch {
      // Its code cannot be downloaded: what was clicked is not done again; the page works.
    }
  }
  document.documentElement.dataset.hydrated = '';
  markTakenOver();
}

/**
 * The servers' clocks as the server's render read them, learnt before the app takes its HTML over:
 * from then on the countdowns go by them (the time the server rendered at is the first reading of
 * them; the browser made no request of its own that would have brought one). Learnt after, the
 * new estimates ticked the page's clock and re-rendered every countdown and relative time at once,
 * while a click waited (20 ms on the bench's page); what takes the HTML over reads the server's
 * own readings (Clock.firstScreen), so it renders what the HTML says either way.
 */
function sampleServerClocks(services: Services, config: RuntimeConfig, first: FirstScreenState) {
  // In the page's own time (Date.now(), which the clock reads), not performance.timeOrigin.
  const pageStart = Date.now() - performance.now();
  const navigation = performance.getEntriesByType('navigation')[0] as
    | PerformanceNavigationTiming
    | undefined;
  for (const source of config.sources) {
    services.serverTime.sample(source.id, {
      sentAt: pageStart,
      receivedAt: navigation ? pageStart + navigation.responseStart : Date.now(),
      date: new Date(first.now + (first.offsets[source.id] ?? 0)).toUTCString(),
    });
  }
}

function loadFirstScreenParts(parts: readonly string[]) {
  markFirstScreenShown({ now: true });
  return Promise.all([
    import('./first-screen-lists').then(
      (module) => module.takeLists,
      // Its code cannot be downloaded: the browser renders the page anew, as without it.
      () => null,
    ),
    loadParts(parts).catch(() => {
      // A part that cannot be downloaded: its boundary says so once the app renders.
    }),
  ]).then(([takeLists]) => takeLists);
}

/** What is wrong with the deployment: its issues, or the API address the browser blocked. */
type StartFailure = { problem: string } & ({ issues: string[] } | { blockedApi: URL });

async function showConfigError(url: string, failure: StartFailure) {
  // Nothing of the app's to click: the server's HTML (if any) is replaced by the explanation.
  document.documentElement.dataset.hydrated = '';
  // Only a broken deployment needs this page (and its explanations): it is not part of the
  // portal's initial download.
  try {
    const { ConfigErrorPage, blockedApiIssue } = await import('./config-error-page');
    const issues = 'issues' in failure ? failure.issues : [blockedApiIssue(failure.blockedApi)];
    root().render(<ConfigErrorPage url={url} problem={failure.problem} issues={issues} />);
  } catch {
    root().render(
      <p>Questions Inbox cannot start: {failure.problem} Reload the page to try again.</p>,
    );
  }
}

const known = firstScreen?.configText
  ? { text: firstScreen.configText, config: firstScreen.config }
  : undefined;
void loadRuntimeConfig(new URL(document.baseURI), configFetch, known).then(async (result) => {
  if (result.ok) {
    const apiRoot = apiRootUrl(result.config, result.baseUrl);
    let blocked = false;
    watchBlockedApi(apiRoot, () => {
      blocked = true;
      void showConfigError(new URL('config.json', result.baseUrl).href, {
        problem: 'The browser blocked every request to the API address.',
        blockedApi: apiRoot,
      });
    });
    const services = createServices(result.config, result.baseUrl);
    const takeLists = firstParts ? await firstParts : null;
    // Blocked while the parts were awaited: the error page is on its way, not the app.
    if (blocked) return;
    // The server rendered this page: the browser takes over its HTML (hydration), unless this
    // tab remembers something the server could not know (embedded, from an earlier address).
    if (
      firstScreen &&
      takeLists &&
      result.config.links === 'path' &&
      sourcesNeedingKeys(result.config).length === 0 &&
      // The settings the server rendered with (config.json changed in between: the browser's own).
      firstScreen.config === JSON.stringify(result.config) &&
      resolveEmbed(result.config.embed, window.location.search) === firstScreen.embed
    ) {
      takeLists(services.queryClient, firstScreen);
      sampleServerClocks(services, result.config, firstScreen);
      made = hydrateRoot(
        container,
        <App
          config={result.config}
          baseUrl={result.baseUrl}
          services={services}
          firstScreen={firstScreen}
          onFirstCommit={() => void takenOver()}
        />,
      );
      return;
    }
    // The first list is taken over from prefetch.js (asked for while this code downloaded), or
    // asked for now.
    const path = `/${window.location.pathname.slice(result.baseUrl.pathname.length)}`;
    const signedIn = sourcesNeedingKeys(result.config).every(
      (source) => services.tokens.get(source.id) !== null,
    );
    // The list page, with or without an open question (public/prefetch.js has its own copy).
    // With hash links (config `links`: the static demo, whose worker answers at once) the address
    // is after the "#": not worth a prefetch of its own.
    if (signedIn && result.config.links === 'path' && matchPath(INBOX_ROUTE, path)) {
      const { status } = parseFilters(new URLSearchParams(window.location.search));
      const firstList = services.queryClient.prefetchQuery(
        createQuestionQueries(services.source, services.queryClient).list(firstListStatus(status)),
      );
      // A list that is (nearly) here is worth a short wait: the page and its rows then render and
      // lay out once, instead of a page of placeholder rows first and the rows again. A slow or
      // failing server gets the page with its loading state after the wait, as before.
      await Promise.race([firstList, delay(FIRST_LIST_WAIT_MS)]);
    }
    // Blocked while the first list was awaited: the error page is on its way, not the app.
    if (blocked) return;
    root().render(
      <App
        config={result.config}
        baseUrl={result.baseUrl}
        services={services}
        onFirstCommit={() => void takenOver()}
      />,
    );
    return;
  }
  await showConfigError(result.url, { problem: result.problem, issues: result.issues });
});
