// Questions Inbox: starts the first requests while the app's code is still downloading.
//
// A plain script (no modules, no build step), loaded first thing in <head> and run as soon as it
// arrives. It fetches config.json and then the list the page shows first, exactly as the app
// would ask for it (src/app/prefetch.ts takes both over; src/app/prefetch.test.ts checks that the
// two agree). If anything here fails or does not match, the app simply asks again itself.
(() => {
  const statuses = ['pending', 'resolved', 'expired', 'superseded', 'cancelled', 'all'];
  const base = document.baseURI;
  const config = fetch(new URL('config.json', base), {
    cache: 'no-store',
    credentials: 'same-origin',
    redirect: 'manual',
  });
  const list = config
    .then((response) => (response.ok ? response.clone().json() : null))
    .then((settings) => {
      // Token mode needs the reviewer's key first; only the list page shows a list.
      if (!settings || settings.auth?.mode === 'token') return null;
      const path = location.pathname.slice(new URL(base).pathname.length);
      // The inbox route of src/config/routes.ts (INBOX_ROUTE); src/app/prefetch.test.ts checks they agree.
      if (!/^questions(\/[^/]*)?\/?$/.test(path)) return null;
      const asked = new URLSearchParams(location.search).get('status');
      const status = statuses.includes(asked) ? asked : 'pending';
      const root = settings.apiBaseUrl || 'api';
      const url = new URL(
        'pending_tool_calls',
        new URL(root.endsWith('/') ? root : `${root}/`, base),
      );
      if (status !== 'all') url.searchParams.set('status', status);
      url.searchParams.set('limit', '500');
      const headers = { Accept: 'application/json', ...settings.headers };
      return {
        url: url.href,
        headers,
        response: fetch(url.href, { headers, credentials: 'same-origin', redirect: 'manual' }),
      };
    })
    .catch(() => null);
  window.__questionsInboxPrefetch = { config, list };
  // Once the list is asked for (or will not be), the fonts of the first screen are looked up while
  // the app's code is still on its way (see .font-warmup in src/styles/app.css), not in its first
  // layout.
  list.then(() => {
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
