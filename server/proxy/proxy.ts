// The API proxy to a real Reflexio: a well-behaved HTTP intermediary that adds the server's API
// key, passes redirects on to the browser and answers in plain words when the upstream fails.
import { hardenApiResponse } from '../http/api-response';
import { isWrite } from '../http/guards';
import { redactUrl } from '../lib/redact-url';

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
  /** Largest answer passed on, once decompressed (default 64 MiB). */
  maxResponseBytes?: number;
  /** The system's name in plain-words errors (default `Reflexio`). */
  name?: string;
}

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;

/** One line per failure: never headers, bodies or a query string (they can hold keys or answers). */
export type ProxyLog = (line: string) => void;

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

/**
 * The request headers passed on to an upstream: what the portal's own client sends and a real
 * API reads. Everything else a browser (or a script posing as one) sends stays here: method
 * overrides (`X-HTTP-Method-Override`), rewrite targets (`X-Original-URL`, `X-Rewrite-URL`),
 * identity headers an SSO proxy sets (`X-Forwarded-User`, `X-Forwarded-Email`, `Remote-User`),
 * cookies, and the client's own claims about the path a request took.
 */
export const FORWARDED_REQUEST_HEADERS = [
  'accept',
  'accept-language',
  'authorization',
  'cache-control',
  'content-type',
  'if-match',
  'if-modified-since',
  'if-none-match',
  'if-unmodified-since',
  'pragma',
  'user-agent',
  // Vertesia's API version.
  'x-api-version',
] as const;

/** The in-process mocks also read their tenant from a header or a cookie. */
export const MOCK_REQUEST_HEADERS = [
  ...FORWARDED_REQUEST_HEADERS,
  'content-length',
  'cookie',
  'x-mock-tenant',
] as const;

/** Only `names` of `headers`, each as it came. */
export function pickHeaders(headers: Headers, names: readonly string[]): Headers {
  const kept = new Headers();
  for (const name of names) {
    const value = headers.get(name);
    if (value !== null) kept.set(name, value);
  }
  return kept;
}

export interface ForwardInput {
  request: Request;
  /** The path below the portal's base path, e.g. `/api/pending_tool_calls`. */
  innerPath: string;
  /** The path as the portal's client asked for it, for the log (default `innerPath`). */
  shownPath?: string;
  body: Uint8Array<ArrayBuffer> | null;
  /** The client's address as this server's socket saw it. */
  clientIp?: string;
  /** `https` when the client's connection to this server was TLS; never read from the request line. */
  clientProto?: 'http' | 'https';
}

function detail(status: number, message: string): Response {
  return hardenApiResponse(
    new Response(null, { status, headers: { 'content-type': 'application/json' } }),
    JSON.stringify({ detail: message }),
  );
}

/** Largest answer taken from an upstream once decompressed (a gzip bomb stops here). */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1_048_576;

/**
 * Where a redirect from the upstream sends the browser, never naming the upstream's own host
 * (often an address inside the network). Into the part of the upstream the portal serves (its
 * `api/`), it becomes the same place under the portal, as a path relative to the request, so it
 * holds under any base path and behind a proxy that strips one. Elsewhere on the upstream's host
 * it is passed as a path only. Another host (an SSO sign-in page) is kept as it is.
 */
export function rewriteLocation(
  location: string,
  target: URL,
  base: URL,
  targetPath: string,
): string | null {
  let resolved: URL;
  try {
    resolved = new URL(location, target);
  } catch {
    return null;
  }
  if (resolved.origin !== base.origin) return resolved.href;
  const pathOnly = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  const prefix = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
  const served = targetPath.replace(/^\/+/, '').split('/');
  const area = `${prefix}${served[0] ?? ''}/`;
  if (!resolved.pathname.startsWith(area)) return pathOnly;
  const rest = resolved.pathname.slice(prefix.length);
  const up = served.length > 1 ? '../'.repeat(served.length - 1) : './';
  return `${up}${rest}${resolved.search}${resolved.hash}`;
}

/** `body` passed through until it grows past `maxBytes`, then cut off with an error. */
function capped(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  onOver: () => void,
): ReadableStream<Uint8Array> {
  let seen = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) {
          onOver();
          controller.error(new Error('upstream answer too large'));
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
}

export function createUpstreamProxy(upstream: Upstream, log: ProxyLog) {
  const parsed = parseUpstreamUrl(upstream.url);
  if (!parsed.ok) throw new Error(parsed.message);
  const base = parsed.url;
  const timeoutMs = upstream.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const maxResponseBytes = upstream.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const name = upstream.name ?? 'Reflexio';

  return async function forward({
    request,
    innerPath,
    shownPath = innerPath,
    body,
    clientIp,
    clientProto = 'http',
  }: ForwardInput): Promise<Response> {
    const incoming = new URL(request.url);
    const target = upstreamTarget(base, innerPath, incoming.search);
    const headers = pickHeaders(request.headers, FORWARDED_REQUEST_HEADERS);
    if (clientIp) headers.set('x-forwarded-for', clientIp);
    headers.set('x-forwarded-proto', clientProto);
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
        // A write is not taken back when the browser goes: the system answers it all the same, and
        // the audit trail records what it answered (a read is dropped with its reader).
        signal: isWrite(request.method) ? timeout : AbortSignal.any([timeout, request.signal]),
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

    const tooLarge = () =>
      detail(
        502,
        `The ${name} server's answer was larger than the portal takes (${maxResponseBytes.toLocaleString('en-US')} bytes).`,
      );
    const encoded = response.headers.has('content-encoding');
    const declared = Number(response.headers.get('content-length'));
    if (!encoded && Number.isFinite(declared) && declared > maxResponseBytes) {
      response.body?.cancel().catch(() => {});
      failed(502, 'answer too large');
      return tooLarge();
    }

    const out = new Headers(response.headers);
    // fetch has already decoded a compressed body.
    if (encoded) {
      out.delete('content-encoding');
      out.delete('content-length');
    }
    const location = out.get('location');
    if (location) {
      const rewritten = rewriteLocation(location, target, base, innerPath);
      if (rewritten) out.set('location', rewritten);
      else out.delete('location');
    }
    const stream = response.body
      ? capped(response.body, maxResponseBytes, () => failed(502, 'answer too large, cut off'))
      : null;
    return hardenApiResponse(
      new Response(null, {
        status: response.status,
        statusText: response.statusText,
        headers: out,
      }),
      stream,
    );
  };
}
