/**
 * Takes over the requests public/prefetch.js started before the app's code arrived: config.json,
 * and each source's first list when it is exactly the request the app is about to make. Anything that does
 * not match is asked for again, as if there had been no prefetch.
 */
interface PrefetchedList {
  url: string;
  headers: Record<string, string>;
  response: Promise<Response>;
}

interface BlockedRequest {
  uri: string;
  directive: string;
}

interface Prefetch {
  config?: Promise<Response>;
  /** config.json's body, read as it arrived (null: not read, e.g. an error status). */
  configText?: Promise<string | null>;
  /** One first list per source it could ask for (none in token mode or away from the list). */
  lists?: Promise<PrefetchedList[]>;
  /** Requests the Content-Security-Policy blocked before the app's code arrived. */
  blocked?: BlockedRequest[];
}

declare global {
  interface Window {
    __questionsInboxPrefetch?: Prefetch;
  }
}

function prefetch(): Prefetch | undefined {
  return typeof window === 'undefined' ? undefined : window.__questionsInboxPrefetch;
}

/** A fetch for loadRuntimeConfig: the prefetched config.json the first time, else a real fetch. */
export const configFetch: typeof fetch = (input, init) => {
  const started = prefetch();
  const config = started?.config;
  if (!config) return fetch(input, init);
  started.config = undefined;
  const text = started.configText;
  if (!text) return config;
  // Its body was read as it arrived (public/first-screen.js): a body read from here on would
  // wait a turn of the page's busy thread (10-30 ms as the app starts), this parses at once.
  return config.then((response) => {
    const body = () =>
      text.then((read) => (read === null ? Response.prototype.text.call(response) : read));
    Object.defineProperty(response, 'text', { value: body });
    Object.defineProperty(response, 'json', {
      value: () => body().then((read: string) => JSON.parse(read)),
    });
    return response;
  });
};

function sameHeaders(a: Record<string, string>, b: HeadersInit | undefined): boolean {
  if (!b || b instanceof Headers || Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  return keysA.length === Object.keys(b).length && keysA.every((key) => a[key] === b[key]);
}

/** The response, or the signal's reason once it aborts (timeouts and cancelled queries still work). */
function abortable(response: Promise<Response>, signal: AbortSignal | null | undefined) {
  if (!signal) return response;
  return new Promise<Response>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    response.then(resolve, reject);
  });
}

const prefetched = new WeakSet<Response>();

/** A response asked for by prefetch.js, before the API client could note when it was sent. */
export function isPrefetchedResponse(response: Response): boolean {
  return prefetched.has(response);
}

/**
 * Wraps a source's fetch: the first GET of a prefetched list's URL gets the prefetched answer
 * (when its headers are the same too). Each prefetched list is handed out once.
 */
export function withPrefetchedList(fetchImpl: typeof fetch): typeof fetch {
  return async (input, init) => {
    const started = prefetch();
    const pending = started?.lists;
    if (pending && (init?.method ?? 'GET') === 'GET') {
      const lists = await pending;
      // Settled at the first request for its URL; a detail request on a deep link may come first
      // and leaves it waiting for the list.
      const index = lists.findIndex((list) => list.url === String(input));
      const list = index === -1 ? undefined : lists.splice(index, 1)[0];
      if (lists.length === 0 && started.lists === pending) started.lists = undefined;
      if (list && sameHeaders(list.headers, init?.headers))
        return abortable(
          list.response.then((response) => {
            prefetched.add(response);
            return response;
          }),
          init?.signal,
        );
    }
    return fetchImpl(input, init);
  };
}

function sameOrigin(uri: string, origin: string): boolean {
  try {
    return new URL(uri).origin === origin;
  } catch {
    return false;
  }
}

/**
 * Calls `onBlocked` once if the page's Content-Security-Policy blocks a request to `apiRoot`
 * (already, while prefetch.js ran, or later). A blocked request fails like a network error; without
 * this the list would wait for an answer that cannot come. Returns a function that stops watching.
 */
export function watchBlockedApi(apiRoot: URL, onBlocked: () => void): () => void {
  const isApi = ({ uri, directive }: BlockedRequest) =>
    directive.startsWith('connect-src') && sameOrigin(uri, apiRoot.origin);
  let done = false;
  const report = () => {
    if (done) return;
    done = true;
    stop();
    onBlocked();
  };
  const listener = (event: SecurityPolicyViolationEvent) => {
    if (isApi({ uri: event.blockedURI, directive: event.effectiveDirective })) report();
  };
  document.addEventListener('securitypolicyviolation', listener);
  const stop = () => document.removeEventListener('securitypolicyviolation', listener);
  if (prefetch()?.blocked?.some(isApi)) report();
  return stop;
}
