// The static demo's Service Worker: it answers the portal's requests for `api/…` and `__mock/…`
// (Reflexio), `vertesia/…` and `bilby/…` with the mock backends themselves (their Hono apps, no
// server), and the portal server's own `portal-api/…` (who is signed in, the audit trail,
// presence and claims, with a simulated colleague: demo/portal.ts); serves the app from a cache
// filled at install (so the demo works offline), and keeps each mock's state, the trail and the
// claims in IndexedDB.

import { API_RESPONSE_CSP, hardenApiResponse, hardenSignInPage } from '../server/http/api-response';
import { type DemoBackend, demoBackends, route } from './backends';
import { DEMO_CSP } from './csp';
import { demoRefusal } from './guards';
import { loadState, loadValue, saveState, saveValue } from './persist';
import { createDemoPortal } from './portal';

// Written by vite.demo.config.ts: every file of the build (relative to the root) and their hash.
declare const __DEMO_PRECACHE__: string[];
declare const __DEMO_VERSION__: string;

// The few Service Worker types used here (the project's TypeScript lib is the DOM's).
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(response: Response | Promise<Response>): void;
}
interface ServiceWorkerScope {
  registration: ServiceWorkerRegistration;
  clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(
    type: 'message',
    listener: (event: ExtendableEvent & { data: unknown }) => void,
  ): void;
}

const sw = self as unknown as ServiceWorkerScope;
const PRECACHE: readonly string[] = __DEMO_PRECACHE__;
const CACHE = `questions-inbox-demo-${__DEMO_VERSION__}`;
const SIMULATOR_INTERVAL_MS = 20_000;
const CHECK_INTERVAL_MS = 5_000;
/** Questions the agent asks at once for the time the Service Worker was asleep. */
const CATCH_UP_MAX = 3;

const scope = new URL(sw.registration.scope);
const backends = demoBackends();
const tickedAt = new Map<string, number>();

sw.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) =>
        cache.addAll(
          PRECACHE.map((file) => new Request(new URL(file, scope), { cache: 'reload' })),
        ),
      )
      .then(() => sw.skipWaiting()),
  );
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys
            .filter((key) => key.startsWith('questions-inbox-demo-') && key !== CACHE)
            .map((key) => caches.delete(key)),
        ),
      )
      .then(() => sw.clients.claim()),
  );
});

// A page loaded without the worker (a hard reload) asks to be taken over.
sw.addEventListener('message', (event) => {
  if (event.data === 'claim') event.waitUntil(sw.clients.claim());
});

// ---- State: restored before the first answer, saved after every change. ----

let saving: Promise<void> = Promise.resolve();

function save(backend: DemoBackend): Promise<void> {
  const saved = { data: backend.snapshot(), tickedAt: tickedAt.get(backend.name) ?? Date.now() };
  saving = saving
    .then(() => saveState(backend.name, saved))
    .catch((error: unknown) => console.warn('[demo] could not save the demo state', error));
  return saving;
}

async function catchUp(backend: DemoBackend): Promise<void> {
  if (!backend.tick) return;
  const last = tickedAt.get(backend.name) ?? Date.now();
  const every = backend.tickEveryMs ?? SIMULATOR_INTERVAL_MS;
  const due = Math.floor((Date.now() - last) / every);
  if (due <= 0) return;
  tickedAt.set(backend.name, due > CATCH_UP_MAX ? Date.now() : last + due * every);
  for (let i = 0; i < Math.min(due, CATCH_UP_MAX); i += 1) await backend.tick();
  await save(backend);
}

async function restore(backend: DemoBackend): Promise<void> {
  try {
    const saved = await loadState(backend.name);
    if (saved && backend.restore(saved.data)) {
      tickedAt.set(backend.name, saved.tickedAt);
      return;
    }
  } catch (error) {
    console.warn('[demo] could not read the saved demo state; starting afresh', error);
  }
  tickedAt.set(backend.name, Date.now());
}

interface CookieStoreLike {
  get(name: string): Promise<{ value?: string } | null>;
}

/** A cookie of the demo's pages (a worker sees no Cookie header; its cookie store has them). */
async function pageCookie(name: string): Promise<string | null> {
  const store = (self as unknown as { cookieStore?: CookieStoreLike }).cookieStore;
  if (!store) return null;
  return (await store.get(name))?.value ?? null;
}

// The portal server's own routes, with the trail and claims restored from IndexedDB.
const portal = createDemoPortal({
  backends,
  cookie: pageCookie,
  load: loadValue,
  save: saveValue,
}).then((made) => {
  made.colleague.start();
  return made;
});

// The simulator runs while the worker is awake (a page that is open polls every 10 s, which
// keeps it awake); after a sleep it catches up with the time missed, a few questions at most.
const ready = Promise.all(backends.map(restore)).then(async () => {
  await Promise.all(backends.map(catchUp));
  setInterval(() => void Promise.all(backends.map(catchUp)), CHECK_INTERVAL_MS);
});

// ---- Requests. ----

function withinScope(response: Response, mount: string | undefined): Response {
  const location = response.headers.get('location');
  if (response.type === 'error' || !location?.startsWith('/')) return response;
  const headers = new Headers(response.headers);
  const under = mount === undefined ? location.slice(1) : `${mount}${location}`;
  headers.set('location', new URL(under, scope).href);
  return new Response(response.body, { status: response.status, headers });
}

/**
 * `path` is the backend's own (`/api/…`): the request reaches its mock as under the portal server,
 * an action on a question recorded in the trail on its way, as the server records it.
 */
async function answer(backend: DemoBackend, request: Request, path: string): Promise<Response> {
  await ready;
  const url = new URL(request.url);
  const method = request.method;
  const body = method === 'GET' || method === 'HEAD' ? undefined : await request.arrayBuffer();
  const own = new Request(new URL(`${path}${url.search}`, scope.origin), {
    method,
    headers: request.headers,
    body,
  });
  const forwarded = await (await portal).forward(backend, own, body);
  // The same headers the portal server puts on every mock answer: nothing in it runs or frames.
  const answered = withinScope(forwarded, backend.mount);
  return path === '/__mock/sign-in' ? hardenSignInPage(answered) : hardenApiResponse(answered);
}

/** `portal-api/…`: the portal server's own routes, answered here (demo/portal.ts). */
async function answerPortal(request: Request, path: string): Promise<Response> {
  await ready;
  const made = await portal;
  const url = new URL(request.url);
  const method = request.method.toUpperCase();
  const body = method === 'GET' || method === 'HEAD' ? undefined : await request.arrayBuffer();
  const own = new Request(new URL(`/${path}${url.search}`, scope.origin), {
    method,
    headers: request.headers,
    body,
    signal: request.signal,
  });
  const response = await made.api(own, `/${path}`);
  // A change is answered once it is saved, as the mocks' are.
  if (body !== undefined) await made.saved();
  const headers = new Headers(response.headers);
  headers.set('x-content-type-options', 'nosniff');
  headers.set('content-security-policy', API_RESPONSE_CSP);
  return new Response(response.body, { status: response.status, headers });
}

/** The headers the portal server sends with every page: its CSP (frame-ancestors included). */
function asPage(response: Response): Response {
  if (response.type === 'opaqueredirect' || response.status === 0) return response;
  const headers = new Headers(response.headers);
  headers.set('content-security-policy', DEMO_CSP);
  headers.set('x-content-type-options', 'nosniff');
  headers.set('referrer-policy', 'no-referrer');
  return new Response(response.body, { status: response.status, headers });
}

async function fromCache(request: Request): Promise<Response> {
  const response = (await caches.match(request, { cacheName: CACHE })) ?? (await fetch(request));
  // A file of the build opened as a page (index.html itself, or framed by another site) gets the
  // page's headers too: the cache keeps a file's body, not what a server would send with it.
  return request.mode === 'navigate' ? asPage(response) : response;
}

/** index.html for every page of the app, with `<base href>` set to the demo's root. */
async function appShell(): Promise<Response> {
  const cached = await caches.match(new URL('index.html', scope).href, { cacheName: CACHE });
  const html = cached
    ? await cached.text()
    : await (await fetch(new URL('index.html', scope))).text();
  return new Response(html.replace('<base href="./" />', `<base href="${scope.pathname}" />`), {
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': DEMO_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    },
  });
}

sw.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return;
  const path = url.pathname.slice(scope.pathname.length);
  // No portal server here: the worker answers its routes (who is signed in, the audit trail,
  // presence and claims), refusing what the server's guards refuse.
  if (path.startsWith('portal-api/')) {
    const refused = demoRefusal(request, `/${path}`, scope.origin);
    event.respondWith(refused ? hardenApiResponse(refused) : answerPortal(request, path));
    return;
  }
  const routed = route(backends, path);
  if (routed) {
    const { backend } = routed;
    const refused = demoRefusal(request, routed.path, scope.origin);
    if (refused) {
      event.respondWith(hardenApiResponse(refused));
      return;
    }
    const answered = answer(backend, request, routed.path);
    // A change is answered once it is saved: the page may be closed (or the worker stopped)
    // the moment it has its answer.
    const saved =
      request.method === 'GET' || request.method === 'HEAD'
        ? answered
        : answered.then(async (response) => {
            await save(backend);
            await (await portal).saved();
            return response;
          });
    event.respondWith(saved);
    return;
  }
  if (request.method !== 'GET') return;
  if (request.mode === 'navigate' && !PRECACHE.includes(path)) {
    event.respondWith(appShell());
    return;
  }
  event.respondWith(fromCache(request));
});
