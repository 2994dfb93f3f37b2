// Questions Inbox: starts the first requests while the app's code is still downloading.
//
// A plain script (no modules, no build step), loaded first thing in <head> and run as soon as it
// arrives. It fetches config.json and then each system's first list, exactly as the app would
// ask for it (src/app/prefetch.ts takes both over; src/app/prefetch.test.ts checks that the
// two agree). If anything here fails or does not match, the app simply asks again itself.
(() => {
  // The status filters: statusMeta's statuses (src/features/questions/utils/question-policy.ts)
  // and 'all'. A plain script cannot import them; src/app/prefetch.test.ts checks they agree.
  const statuses = ['pending', 'resolved', 'expired', 'superseded', 'cancelled', 'all'];
  const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
  const onlyKeys = (value, keys) => Object.keys(value).every((key) => keys.includes(key));
  const nonEmpty = (value) => typeof value === 'string' && value.length > 0;
  // The rules of src/config/runtime-config.ts, which the app checks once its code is here: nothing
  // is sent from a config.json that the app would refuse (src/app/prefetch.test.ts feeds both the
  // same files). Keep the two in step.
  const usableApiBase = (value) => {
    if (!nonEmpty(value)) return false;
    try {
      const url = new URL(value, 'http://portal.invalid/');
      return /^https?:$/.test(url.protocol) && !url.username && !url.password;
    } catch {
      return false;
    }
  };
  const sourceKeys = {
    reflexio: ['id', 'kind', 'label', 'apiBaseUrl', 'auth'],
    vertesia: ['id', 'kind', 'label', 'apiBaseUrl', 'auth', 'apiVersion'],
    bilby: ['id', 'kind', 'label', 'apiBaseUrl', 'auth', 'organizationId'],
  };
  const validSource = (source) =>
    isObject(source) &&
    Object.hasOwn(sourceKeys, source.kind) &&
    onlyKeys(source, sourceKeys[source.kind]) &&
    typeof source.id === 'string' &&
    /^[a-z0-9][a-z0-9-]{0,31}$/.test(source.id) &&
    (source.label === undefined || nonEmpty(source.label)) &&
    (source.auth === undefined || source.auth === 'token' || source.auth === 'server') &&
    usableApiBase(source.apiBaseUrl) &&
    (source.apiVersion === undefined ||
      (typeof source.apiVersion === 'string' && /^\d{8}$/.test(source.apiVersion))) &&
    (source.organizationId === undefined || nonEmpty(source.organizationId));
  const validSources = (sources) =>
    Array.isArray(sources) &&
    sources.length > 0 &&
    sources.every(validSource) &&
    new Set(sources.map((source) => source.id)).size === sources.length;
  const optionalNumber = (value, min, max) =>
    value === undefined || (typeof value === 'number' && value >= min && value <= max);
  const valid = (settings) => {
    if (!isObject(settings)) return false;
    const { apiBaseUrl, sources, pollIntervalMs, notifyPollIntervalMs, auth, headers, embed } =
      settings;
    const { claimMinutes, maxClaims, responseTargetMinutes, insightsPerReviewer, undoSeconds } =
      settings;
    return (
      onlyKeys(settings, [
        'apiBaseUrl',
        'sources',
        'pollIntervalMs',
        'notifyPollIntervalMs',
        'auth',
        'headers',
        'embed',
        'claimMinutes',
        'maxClaims',
        'responseTargetMinutes',
        'insightsPerReviewer',
        'undoSeconds',
      ]) &&
      optionalNumber(responseTargetMinutes, 1, 10080) &&
      (insightsPerReviewer === undefined || typeof insightsPerReviewer === 'boolean') &&
      optionalNumber(undoSeconds, 0, 60) &&
      optionalNumber(claimMinutes, 0.05, 1440) &&
      (maxClaims === undefined ||
        (Number.isInteger(maxClaims) && maxClaims >= 1 && maxClaims <= 10000)) &&
      (apiBaseUrl === undefined || usableApiBase(apiBaseUrl)) &&
      (sources === undefined || (apiBaseUrl === undefined && validSources(sources))) &&
      (pollIntervalMs === undefined ||
        (Number.isInteger(pollIntervalMs) && pollIntervalMs >= 2000 && pollIntervalMs <= 600000)) &&
      (notifyPollIntervalMs === undefined ||
        (Number.isInteger(notifyPollIntervalMs) &&
          notifyPollIntervalMs >= 15000 &&
          notifyPollIntervalMs <= 3600000)) &&
      (auth === undefined ||
        (isObject(auth) &&
          onlyKeys(auth, ['mode', 'signInUrl', 'userInfoUrl']) &&
          (auth.mode === undefined || auth.mode === 'proxy' || auth.mode === 'token') &&
          (auth.signInUrl === undefined || nonEmpty(auth.signInUrl)) &&
          (auth.userInfoUrl === undefined || nonEmpty(auth.userInfoUrl)))) &&
      (headers === undefined ||
        (isObject(headers) &&
          Object.entries(headers).every(
            ([name, value]) =>
              /^[A-Za-z0-9-]+$/.test(name) &&
              name.toLowerCase() !== 'authorization' &&
              typeof value === 'string' &&
              /^[\t\x20-\x7e\x80-\xff]*$/.test(value),
          ))) &&
      (embed === undefined || typeof embed === 'boolean')
    );
  };
  const base = document.baseURI;
  const root = document.documentElement;
  const firstScreen = document.querySelector('meta[name="qi-first-screen"]') !== null;
  // The reviewer's colour scheme before anything is drawn (Mantine's localStorage key and values;
  // the server's render already set it from the cookie when there is one).
  try {
    const stored = localStorage.getItem('mantine-color-scheme-value');
    const scheme =
      stored === 'light' || stored === 'dark'
        ? stored
        : matchMedia('(prefers-color-scheme: dark)').matches
          ? 'dark'
          : 'light';
    root.setAttribute('data-mantine-color-scheme', scheme);
  } catch {
    // Storage or cookies blocked (a sandboxed frame): Mantine sets the scheme once the app runs.
  }
  // Requests the page's Content-Security-Policy blocked (an apiBaseUrl on another origin): the app
  // names the setting instead of waiting for an answer that cannot come. Kept from the start, as
  // the first list is asked for before the app's code is here.
  const blocked = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    blocked.push({ uri: event.blockedURI, directive: event.effectiveDirective });
  });
  const config = fetch(new URL('config.json', base), {
    cache: 'no-store',
    credentials: 'same-origin',
    redirect: 'manual',
  });
  // Whether this inbox's unfiltered list was cut at the API's limit last time: the key and rule of
  // src/features/questions/utils/lists-cut.ts (src/app/prefetch.test.ts checks they agree).
  const listsCut = () => {
    try {
      return localStorage.getItem(`qi:lists-cut:${new URL(base).pathname}`) === '1';
    } catch {
      return false;
    }
  };
  const under = (root, path) =>
    new URL(path, new URL(root.endsWith('/') ? root : `${root}/`, base));
  // The first list request the app makes of each system, exactly as its adapter builds it:
  // Reflexio's (src/features/questions/sources/reflexio/client.ts), Vertesia's pending asks with
  // its API version (…/vertesia/requests.ts, wire.ts) and Bilby's first page of conversations
  // (…/bilby/requests.ts). src/app/prefetch.test.ts checks each against the app's own request.
  const firstList = (source, status, extra) => {
    const headers = { Accept: 'application/json', ...extra };
    if (source.kind === 'vertesia') {
      headers['x-api-version'] = source.apiVersion || '20260803';
      return { url: under(source.apiBaseUrl, 'pending-asks').href, headers };
    }
    if (source.kind === 'bilby') {
      const url = under(source.apiBaseUrl, 'conversations');
      if (source.organizationId) url.searchParams.set('organizationId', source.organizationId);
      return { url: url.href, headers };
    }
    const url = under(source.apiBaseUrl, 'pending_tool_calls');
    if (status !== 'all') url.searchParams.set('status', status);
    url.searchParams.set('limit', '500');
    return { url: url.href, headers };
  };
  const lists = config
    .then((response) => (response.ok ? response.clone().json() : null))
    .then((settings) => {
      // A config.json the app will refuse sends nothing; token mode needs the reviewer's key
      // first; only the list page shows a list.
      if (!valid(settings)) return [];
      // Several sources: their code (named by vite.config.ts) downloads beside the app's.
      const code = document.querySelector('meta[name="qi-sources-code"]');
      if (code && settings.sources?.length > 1) {
        for (const file of code.content.split(' ')) {
          const link = document.createElement('link');
          link.rel = 'modulepreload';
          link.href = new URL(file, base).href;
          document.head.append(link);
        }
      }
      if (settings.auth?.mode === 'token') return [];
      // The server put the first screen and its lists in the page (src/app/entry-server.tsx).
      if (firstScreen) return [];
      const path = location.pathname.slice(new URL(base).pathname.length);
      // The inbox route of src/config/routes.ts (INBOX_ROUTE); src/app/prefetch.test.ts checks they agree.
      if (!/^questions(\/[^/]*)?\/?$/.test(path)) return [];
      const asked = new URLSearchParams(location.search).get('status');
      const status = statuses.includes(asked) ? asked : 'pending';
      // The app asks each system for its unfiltered list and cuts the view from it, unless that
      // list was cut at the limit last time: then Reflexio is asked for the view's status first.
      const first = listsCut() ? status : 'all';
      const sources = settings.sources || [
        { kind: 'reflexio', apiBaseUrl: settings.apiBaseUrl || 'api' },
      ];
      return sources.map((source) => {
        const request = firstList(source, first, settings.headers);
        return {
          ...request,
          response: fetch(request.url, {
            headers: request.headers,
            credentials: 'same-origin',
            redirect: 'manual',
          }),
        };
      });
    })
    .catch(() => []);
  window.__questionsInboxPrefetch = { config, lists, blocked };
  // Once the list is asked for (or will not be), the fonts of the first screen are looked up while
  // the app's code is still on its way (see .font-warmup in src/styles/app.css), not in its first
  // layout.
  lists.then(() => {
    document.documentElement.dataset.warmFonts = '';
    // The same for the first date formatter (its first use starts ICU, about 6 ms here) and for
    // the two storage areas the app reads as it starts (the first read of each is a round trip
    // to the browser process: theme and embed mode).
    try {
      new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'long' }).format(0);
      void localStorage.length;
      void sessionStorage.length;
    } catch {
      // Only a head start (storage can be blocked, in a sandboxed frame); the app copes without.
    }
  });
})();
