// The API proxy to a real Reflexio: a well-behaved HTTP intermediary that adds the server's API
// key, passes redirects on to the browser and answers in plain words when the upstream fails.

export interface Upstream {
  /**
   * Root of a real Reflexio server, e.g. `https://reflexio.internal` or
   * `https://gateway.internal/reflexio/`; `api/...` is appended to its path.
   */
  url: string;
  /** Added as `Authorization: Bearer …` server-side, so the key never reaches the browser. */
  apiKey?: string;
  /** How long to wait for the upstream's answer before a 504 (default 30 s). */
  timeoutMs?: number;
  /** The system's name in plain-words errors (default `Reflexio`). */
  name?: string;
}

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;

/** One line per failure: never headers, bodies or a query string (they can hold keys or answers). */
export type ProxyLog = (line: string) => void;

/** `scheme://***@host…`: a URL as it can be printed. */
export function redactUrl(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1***@');
}

/** REFLEXIO_URL (or another system's `…_URL`) checked at start-up: a message in plain words (never echoing credentials) or the URL. */
export function parseUpstreamUrl(
  value: string,
  variable = 'REFLEXIO_URL',
): { ok: true; url: URL } | { ok: false; message: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, message: `${variable} is not a valid URL: ${redactUrl(value)}` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      ok: false,
      message: `${variable} must start with http:// or https://, not ${url.protocol}`,
    };
  }
  if (url.username || url.password) {
    return {
      ok: false,
      message: `${variable} must not hold a user name or password (${redactUrl(url.href)}): put the API key in ${variable.replace(/_URL$/, '_API_KEY')}.`,
    };
  }
  if (url.search || url.hash) {
    return {
      ok: false,
      message: `${variable} must not have a query or fragment: ${url.origin}${url.pathname}`,
    };
  }
  return { ok: true, url };
}

/** `https://host/reflexio` + `/api/x?y` → `https://host/reflexio/api/x?y` (the path is kept). */
export function upstreamTarget(base: URL, innerPath: string, search: string): URL {
  const prefix = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
  return new URL(`${base.origin}${prefix}${innerPath.replace(/^\/+/, '')}${search}`);
}

// RFC 9110 §7.6.1: meant for one connection only, never forwarded.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  // Answered by this server (100 Continue), not passed on: fetch refuses it anyway.
  'expect',
]);

/** Hop-by-hop headers removed, including those the Connection header names. */
function withoutHopByHop(headers: Headers): Headers {
  const named = (headers.get('connection') ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const kept = new Headers();
  headers.forEach((value, key) => {
    if (HOP_BY_HOP.has(key) || key.startsWith('proxy-') || named.includes(key)) return;
    kept.append(key, value);
  });
  return kept;
}

// The client's own claims about the path a request took: replaced by what this server saw.
const FORWARDING = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-forwarded-prefix',
  'x-real-ip',
];

export interface ForwardInput {
  request: Request;
  /** The path below the portal's base path, e.g. `/api/pending_tool_calls`. */
  innerPath: string;
  /** The path as the portal's client asked for it, for the log (default `innerPath`). */
  shownPath?: string;
  body: Uint8Array<ArrayBuffer> | null;
  /** The client's address as this server's socket saw it. */
  clientIp?: string;
}

function detail(status: number, message: string): Response {
  return new Response(JSON.stringify({ detail: message }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

export function createUpstreamProxy(upstream: Upstream, log: ProxyLog) {
  const parsed = parseUpstreamUrl(upstream.url);
  if (!parsed.ok) throw new Error(parsed.message);
  const base = parsed.url;
  const timeoutMs = upstream.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const name = upstream.name ?? 'Reflexio';

  return async function forward({
    request,
    innerPath,
    shownPath = innerPath,
    body,
    clientIp,
  }: ForwardInput): Promise<Response> {
    const incoming = new URL(request.url);
    const target = upstreamTarget(base, innerPath, incoming.search);
    const headers = withoutHopByHop(request.headers);
    for (const name of [...FORWARDING, 'host', 'cookie', 'content-length', 'accept-encoding']) {
      headers.delete(name);
    }
    if (clientIp) headers.set('x-forwarded-for', clientIp);
    headers.set('x-forwarded-proto', incoming.protocol.replace(':', ''));
    const host = request.headers.get('host');
    if (host) headers.set('x-forwarded-host', host);
    if (upstream.apiKey) headers.set('authorization', `Bearer ${upstream.apiKey}`);

    const started = performance.now();
    const failed = (status: number, what: string) => {
      const ms = Math.round(performance.now() - started);
      log(`[proxy] ${request.method} ${shownPath} → ${status} ${what} (upstream ${ms} ms)`);
    };
    const timeout = AbortSignal.timeout(timeoutMs);
    let response: Response;
    try {
      response = await fetch(target, {
        method: request.method,
        headers,
        body: body ?? undefined,
        // A 3xx is how an SSO in front of Reflexio says the session ended: the browser decides.
        redirect: 'manual',
        signal: AbortSignal.any([timeout, request.signal]),
      });
    } catch (error) {
      if (timeout.aborted) {
        failed(504, 'timed out');
        return detail(504, `The ${name} server did not answer within ${timeoutMs / 1000} seconds.`);
      }
      const code = (error as { cause?: { code?: string } }).cause?.code;
      failed(502, `unreachable${code ? ` (${code})` : ''}`);
      return detail(502, `The ${name} server could not be reached from the portal server.`);
    }
    if (response.status >= 500) failed(response.status, 'from upstream');

    const out = withoutHopByHop(response.headers);
    // The upstream's cookies are for the upstream's name, not the portal's.
    out.delete('set-cookie');
    // fetch has already decoded a compressed body.
    if (out.has('content-encoding')) {
      out.delete('content-encoding');
      out.delete('content-length');
    }
    const location = out.get('location');
    if (location) {
      try {
        out.set('location', new URL(location, target).href);
      } catch {
        out.delete('location');
      }
    }
    return new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers: out,
    });
  };
}
