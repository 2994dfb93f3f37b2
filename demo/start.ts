// The static demo's first script (a classic one, first thing in <head>). It makes sure the demo's
// Service Worker answers this page's requests before the portal starts, then starts the portal
// and puts the demo banner above it. On 404.html (a link into the app that the static host did
// not know) it does the same and reloads, so the worker serves the page.

import { RESET_PATHS } from './reset-paths';

declare global {
  interface Window {
    __questionsInboxDemo?: true;
  }
}

const CONTROL_TIMEOUT_MS = 15_000;

class DemoError extends Error {}

function ensureController(root: URL): Promise<void> {
  const container = navigator.serviceWorker;
  if (!container) {
    return Promise.reject(
      new DemoError(
        'This browser does not let the page run its pretend server (a Service Worker): some private windows block it. Open the demo in a normal window.',
      ),
    );
  }
  if (container.controller) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new DemoError('Setting up the demo took too long.')),
      CONTROL_TIMEOUT_MS,
    );
    container.addEventListener(
      'controllerchange',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
    container
      .register(new URL('sw.js', root), { scope: root.pathname })
      .then(() => container.ready)
      .then((registration) => {
        // Already active (this page was hard-reloaded past it): ask it to take the page over.
        if (!container.controller) registration.active?.postMessage('claim');
      })
      .catch((error: unknown) => {
        clearTimeout(timer);
        reject(
          new DemoError(
            `The demo could not be set up${error instanceof Error ? ` (${error.message})` : ''}.`,
          ),
        );
      });
  });
}

function addScript(src: string, attributes: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve) => {
    const script = document.createElement('script');
    for (const [name, value] of Object.entries(attributes)) script.setAttribute(name, value);
    script.async = false;
    script.src = src;
    script.onload = () => resolve();
    script.onerror = () => resolve();
    document.head.append(script);
  });
}

function whenBody(): Promise<void> {
  if (document.readyState !== 'loading') return Promise.resolve();
  return new Promise((resolve) =>
    document.addEventListener('DOMContentLoaded', () => resolve(), { once: true }),
  );
}

function showProblem(message: string, root: URL): void {
  const place = document.getElementById('root') ?? document.body;
  const box = document.createElement('div');
  box.className = 'demo-problem';
  box.setAttribute('role', 'alert');
  const text = document.createElement('p');
  text.textContent = message;
  const retry = document.createElement('a');
  retry.href = root.href;
  retry.textContent = 'Try again';
  box.append(text, retry);
  place.replaceChildren(box);
}

function banner(root: URL): HTMLElement {
  const section = document.createElement('section');
  section.className = 'demo-banner';
  section.setAttribute('aria-label', 'Demo');
  const text = document.createElement('p');
  text.textContent =
    'Demo with made-up data. A pretend server runs in your browser; what you do stays in this browser. Sam, a pretend colleague, drops by now and then.';
  const reset = document.createElement('button');
  reset.type = 'button';
  reset.textContent = 'Reset demo';
  const status = document.createElement('p');
  status.className = 'demo-banner-status';
  status.setAttribute('role', 'status');
  // Reset wipes what the visitor did (answers, the trail, claims): asked first, in the banner.
  const ask = document.createElement('div');
  ask.className = 'demo-banner-ask';
  ask.setAttribute('role', 'group');
  ask.setAttribute('aria-label', 'Reset the demo?');
  ask.hidden = true;
  const askText = document.createElement('p');
  askText.textContent =
    'Reset the demo? Your answers, the trail of who did what, the claims and the team’s snippets are erased, and the made-up data comes back.';
  const confirm = document.createElement('button');
  confirm.type = 'button';
  confirm.textContent = 'Erase and reset';
  const keep = document.createElement('button');
  keep.type = 'button';
  keep.textContent = 'Keep my changes';
  ask.append(askText, confirm, keep);
  const asking = (on: boolean) => {
    ask.hidden = !on;
    reset.hidden = on;
    (on ? keep : reset).focus();
  };
  reset.addEventListener('click', () => asking(true));
  keep.addEventListener('click', () => asking(false));
  ask.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') asking(false);
  });
  confirm.addEventListener('click', async () => {
    confirm.disabled = true;
    keep.disabled = true;
    status.textContent = 'Resetting…';
    try {
      const responses = await Promise.all(
        RESET_PATHS.map((path) =>
          fetch(new URL(path, root), {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{}',
          }),
        ),
      );
      const failed = responses.find((response) => !response.ok);
      if (failed) throw new Error(`HTTP ${failed.status}`);
      // Actions still waiting with their undo (src/features/questions/utils/outbox.ts) belong to
      // the data just erased: they must not be sent into the fresh one after the reload.
      try {
        localStorage.removeItem('qi:outbox');
      } catch {
        // Storage refused: nothing was kept there either.
      }
      window.location.reload();
    } catch (error) {
      confirm.disabled = false;
      keep.disabled = false;
      status.textContent = `The demo could not be reset (${error instanceof Error ? error.message : 'unknown error'}). Reload the page and try again.`;
    }
  });
  section.append(text, reset, ask, status);
  return section;
}

function start(script: HTMLScriptElement): void {
  // The folder of this script is the demo's root, whatever sub-path the host serves it under.
  const root = new URL('./', script.src);
  const onNotFoundPage = script.dataset.page === 'not-found';
  if (!window.location.pathname.startsWith(root.pathname)) return;
  if (onNotFoundPage) {
    // Controlled already, yet the host answered: the worker does not know this address either.
    if (navigator.serviceWorker?.controller) {
      void whenBody().then(() => showProblem('This page does not exist in the demo.', root));
      return;
    }
    ensureController(root).then(
      () => window.location.reload(),
      (error: unknown) =>
        void whenBody().then(() =>
          showProblem(error instanceof DemoError ? error.message : String(error), root),
        ),
    );
    return;
  }

  // The app resolves everything against <base href>; pin it to the root. The demo's app links are
  // hash links (`<root>#/questions/<id>`, see demo/config.ts): any static host answers them with
  // this page. A link of the older form (`<root>questions/<id>`, served by the worker or through
  // 404.html) becomes the same hash link; an `index.html` in the address is dropped.
  document.querySelector('base')?.setAttribute('href', root.pathname);
  const below = window.location.pathname.slice(root.pathname.length).replace(/^index\.html$/, '');
  if (below !== '' || window.location.pathname !== root.pathname) {
    const hash = below ? `#/${below}${window.location.search}` : window.location.hash;
    window.history.replaceState(
      null,
      '',
      `${root.pathname}${below ? '' : window.location.search}${hash}`,
    );
  }
  const { prefetch, entry } = script.dataset;
  if (!prefetch || !entry) throw new Error('demo-start.js needs data-prefetch and data-entry');

  void whenBody().then(() => document.body.prepend(banner(root)));
  ensureController(root).then(
    async () => {
      await addScript(new URL(prefetch, root).href);
      await addScript(new URL(entry, root).href, { type: 'module', crossorigin: '' });
    },
    (error: unknown) =>
      void whenBody().then(() =>
        showProblem(error instanceof DemoError ? error.message : String(error), root),
      ),
  );
}

const script = document.currentScript;
if (!window.__questionsInboxDemo && script instanceof HTMLScriptElement) {
  window.__questionsInboxDemo = true;
  start(script);
}
