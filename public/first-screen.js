// Questions Inbox: the page's first screen came from the server (server/render/first-screen.ts
// puts this script, right after <base>, only into such a page; docs/server-rendering.md). Until
// the app has taken the page over (main.tsx sets data-hydrated on <html>), what a reviewer clicks
// or presses on the server's rows is kept and done again once it has; and the preferences the
// server renders with are kept in cookies as well as localStorage (src/lib/first-screen.ts).
(() => {
  const root = document.documentElement;
  const base = document.baseURI;
  try {
    const stored = localStorage.getItem('mantine-color-scheme-value');
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
  // A row, a button, a switch or a tab clicked before the app has taken over the server's HTML
  // is clicked again once it has (main.tsx): until then it has no handler. If the app has not come
  // 5 s later, a link is followed as a plain link.
  const clickable =
    'a[data-row-link], a[data-member-link], a[href^="#"], button, [role="switch"], [role="radio"], label, input[type="checkbox"], input[type="radio"]';
  document.addEventListener(
    'click',
    (event) => {
      if (root.dataset.hydrated !== undefined) return;
      const plain =
        event.button === 0 && !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey;
      const target =
        plain && event.target instanceof Element ? event.target.closest(clickable) : null;
      if (!target) return;
      event.preventDefault();
      window.__questionsInboxQueuedClick = target;
      if (!(target instanceof HTMLAnchorElement)) return;
      setTimeout(() => {
        if (root.dataset.hydrated === undefined && window.__questionsInboxQueuedClick === target) {
          location.assign(target.href);
        }
      }, 5000);
    },
    true,
  );
  // Keyboard shortcuts pressed meanwhile (j, k, Enter on a row, ?, /) are kept, in order, and
  // pressed again once the app listens. Typing in a field is the field's own, and left alone.
  const keys = [];
  window.__questionsInboxQueuedKeys = keys;
  document.addEventListener(
    'keydown',
    (event) => {
      if (root.dataset.hydrated !== undefined || keys.length >= 20) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest('input, textarea, select, [contenteditable="true"]')) return;
      // Enter on a link or a button is its click (held above, or a plain link's own way).
      if (event.key === 'Enter' && target?.closest('a, button, summary, [role="button"]')) return;
      if (event.key === 'Tab' || event.key.startsWith('Arrow') || event.key === ' ') return;
      if (event.key.length > 1 && event.key !== 'Enter' && event.key !== 'Escape') return;
      event.preventDefault();
      keys.push({
        key: event.key,
        code: event.code,
        shiftKey: event.shiftKey,
        ctrlKey: event.ctrlKey,
        altKey: event.altKey,
        metaKey: event.metaKey,
      });
    },
    true,
  );
})();
