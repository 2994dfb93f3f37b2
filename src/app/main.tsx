// Before anything builds a zod schema.
import './zod-setup';
import './mantine-styles';
import '@/styles/theme.generated.css';
import '@/styles/app.css';
import { createRoot } from 'react-dom/client';
import { matchPath } from 'react-router';
import { INBOX_ROUTE } from '@/config/routes';
import { loadRuntimeConfig, sourcesNeedingKeys } from '@/config/runtime-config';
import { createQuestionQueries } from '@/features/questions/api/queries';
import { parseFilters } from '@/features/questions/utils/filters';
import { firstListStatus } from '@/features/questions/utils/lists-cut';
import { App } from './app';
import { configFetch, watchBlockedApi } from './prefetch';
import { apiRootUrl, createServices } from './services';

/** How long start-up waits for the first list before it shows the page without it. */
const FIRST_LIST_WAIT_MS = 250;
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);

/** What is wrong with the deployment: its issues, or the API address the browser blocked. */
type StartFailure = { problem: string } & ({ issues: string[] } | { blockedApi: URL });

async function showConfigError(url: string, failure: StartFailure) {
  // Only a broken deployment needs this page (and its explanations): it is not part of the
  // portal's initial download.
  try {
    const { ConfigErrorPage, blockedApiIssue } = await import('./config-error-page');
    const issues = 'issues' in failure ? failure.issues : [blockedApiIssue(failure.blockedApi)];
    root.render(<ConfigErrorPage url={url} problem={failure.problem} issues={issues} />);
  } catch {
    root.render(
      <p>Questions Inbox cannot start: {failure.problem} Reload the page to try again.</p>,
    );
  }
}

void loadRuntimeConfig(new URL(document.baseURI), configFetch).then(async (result) => {
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
    root.render(<App config={result.config} baseUrl={result.baseUrl} services={services} />);
    return;
  }
  await showConfigError(result.url, { problem: result.problem, issues: result.issues });
});
