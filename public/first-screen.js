// Questions Inbox: the page's first screen came from the server (server/render/first-screen.ts
// puts this script, at the end of <head>, only into such a page, instead of prefetch.js;
// docs/server-rendering.md). Until the app has taken the page over (main.tsx sets data-hydrated
// on <html>), what a reviewer clicks or presses on the server's rows is kept and done again once
// it has; the preferences the server renders with are kept in cookies as well as localStorage
// (src/lib/first-screen.ts); and what of prefetch.js such a page needs is done here: config.json
// asked for at once, the colour scheme set before anything is drawn, and the requests the page's
// Content-Security-Policy blocked kept for the app (src/app/prefetch.ts takes them over).
(() => {
  const root = document.documentElement;
  const base = document.baseURI;
  const blocked = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    blocked.push({ uri: event.blockedURI, directive: event.effectiveDirective });
  });
  const config = fetch(new URL('config.json', base), {
    cache: 'no-store',
    credentials: 'same-origin',
    redirect: 'manual',
  });
  // Its body is read now, while the page is parsed and drawn, as prefetch.js reads it: the app's
  // own read then finds it here instead of waiting its turn behind the app's start-up (10-30 ms).
  const configText = config
    .then((response) => (response.ok ? response.clone().text() : null))
    .catch(() => null);
  // The lists are in the page: none to ask for.
  window.__questionsInboxPrefetch = { config, configText, lists: Promise.resolve([]), blocked };
  try {
    const stored = localStorage.getItem('mantine-color-scheme-value');
    // The cookie's scheme, which the server drew with, or this browser's own.
    if (!root.hasAttribute('data-mantine-color-scheme')) {
      const dark =
        stored === 'light' || stored === 'dark'
          ? stored === 'dark'
          : matchMedia('(prefers-color-scheme: dark)').matches;
      root.setAttribute('data-mantine-color-scheme', dark ? 'dark' : 'light');
    }
    const path = new URL(base).pathname;
    const remember = (name, value) => {
      const pair = `${name}=${value}`;
      if (!document.cookie.split('; ').includes(pair)) {
        // biome-ignore lint/suspicious/noDocumentCookie: a plain script, run before the app; the Cookie Store API is not in every browser the portal supports.
        document.cookie = `${pair}; Path=${path}; Max-Age=31536000; SameSite=Lax`;
      }
    };
    if (stored === 'light' || stored === 'dark') remember('qi-color-scheme', stored);
    const density = localStorage.getItem('qi:density');
    if (density === 'compact' || density === 'comfortable') remember('qi-density', density);
  } catch {
    // Cookies or storage blocked (a sandboxed frame): the server renders with its defaults.
  }
  // What a reviewer clicks (a row, a button, a switch, a checkbox, a tab) or presses (j, k, Enter
  // on a row, ?, /) before the app has taken over the server's HTML has no handler yet: it is kept,
  // in order, and done again once the app runs (main.tsx replays the queue, one action at a time,
  // and only then sets data-hydrated: what comes meanwhile joins the end of the queue). Typing in
  // a field is the field's own, and left alone while nothing waits. If the app has not come 5 s after a link was
  // clicked, the link is followed as a plain link.
  const queue = [];
  window.__questionsInboxQueue = queue;
  // Not what main.tsx itself does again (__questionsInboxReplaying) while it replays.
  const holding = () =>
    root.dataset.hydrated === undefined && !window.__questionsInboxReplaying && queue.length < 40;
  const clickable =
    'a[data-row-link], a[data-member-link], a[href^="#"], button, [role="switch"], [role="radio"], [role="tab"], label, input[type="checkbox"], input[type="radio"]';
  document.addEventListener(
    'click',
    (event) => {
      if (!holding()) return;
      const modified = event.metaKey || event.altKey || event.ctrlKey || event.shiftKey;
      const target = event.target instanceof Element ? event.target.closest(clickable) : null;
      // A link with a modifier (a new tab or window) is the browser's own.
      if (event.button !== 0 || !target || (modified && target instanceof HTMLAnchorElement))
        return;
      // Not even a checkbox's own tick, nor the app's handler while it replays what came before:
      // the click, replayed in its turn, makes it.
      event.preventDefault();
      event.stopPropagation();
      const action = {
        click: target,
        modifiers: {
          shiftKey: event.shiftKey,
          ctrlKey: event.ctrlKey,
          altKey: event.altKey,
          metaKey: event.metaKey,
        },
      };
      queue.push(action);
      if (!(target instanceof HTMLAnchorElement)) return;
      setTimeout(() => {
        if (root.dataset.hydrated === undefined && queue.includes(action))
          location.assign(target.href);
      }, 5000);
    },
    true,
  );
  // A field changed meanwhile (the search box, a Tag or Sort choice) keeps what it shows, but the
  // app did not see it change: its last value is given to the app in its turn.
  const field = (event) => {
    const target = event.target;
    if (!holding() || !(target instanceof HTMLInputElement || target instanceof HTMLSelectElement))
      return;
    if (target.type === 'checkbox' || target.type === 'radio') return;
    const last = queue[queue.length - 1];
    if (last && last.field === target) last.value = target.value;
    else queue.push({ field: target, value: target.value });
  };
  document.addEventListener('input', field, true);
  document.addEventListener('change', field, true);
  document.addEventListener(
    'keydown',
    (event) => {
      if (!holding()) return;
      const target = event.target instanceof Element ? event.target : null;
      // Typing in a field is the field's own, unless keys still wait to be done again: then it
      // waits behind them, or it would overtake them (a, then "Ask the data team" typed on: the a,
      // done again, puts the focus in the answer box while the rest still waits its turn).
      const inField = target?.closest('input, textarea, select, [contenteditable="true"]');
      if (inField && queue.length === 0) return;
      // Enter on a link or a button is its click (held above, or a plain link's own way).
      if (event.key === 'Enter' && target?.closest('a, button, summary, [role="button"]')) return;
      if (event.key === 'Tab' || event.key.startsWith('Arrow')) return;
      // Space is the page's own (scroll, a button), unless an earlier key waits: it may be typed
      // where that key puts the focus (a then "Ask the data team").
      if (event.key === ' ' && queue.length === 0) return;
      const erase = inField && (event.key === 'Backspace' || event.key === 'Delete');
      if (event.key.length > 1 && event.key !== 'Enter' && event.key !== 'Escape' && !erase) return;
      event.preventDefault();
      event.stopPropagation();
      queue.push({
        key: {
          key: event.key,
          code: event.code,
          shiftKey: event.shiftKey,
          ctrlKey: event.ctrlKey,
          altKey: event.altKey,
          metaKey: event.metaKey,
        },
      });
    },
    true,
  );
})();
