// What every answer from an upstream or a mock gets before a browser sees it on the portal's
// origin: the portal server (proxy.ts, portal.ts) and the static demo's Service Worker
// (demo/sw.ts) both use it, so it runs in a browser too: no Node built-ins here.

/**
 * The response headers passed back to the browser. An upstream's CORS headers would let another
 * site read an answer the server's key bought; its cookies are for its own name; `Server` and
 * `X-Powered-By` describe the inside of the network. Hop-by-hop headers are for one connection.
 */
const DROPPED_RESPONSE_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'set-cookie',
  'set-cookie2',
  'server',
  'x-powered-by',
  'content-security-policy',
  'content-security-policy-report-only',
  'x-content-type-options',
  'alt-svc',
  'strict-transport-security',
  'public-key-pins',
  'report-to',
  'nel',
  'clear-site-data',
  'refresh',
  'link',
]);

/** What a proxied answer runs in a browser that opens it: nothing. */
export const API_RESPONSE_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";

function isJsonType(contentType: string | null): boolean {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

function isHtmlType(contentType: string | null): boolean {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'text/html' || type === 'application/xhtml+xml';
}

/** The header that tells the portal's client an upstream answered with a web page (see below). */
export const UPSTREAM_TYPE_HEADER = 'x-upstream-content-type';

/**
 * An answer from an upstream or a mock, made safe to hand to a browser on the portal's origin:
 * no CORS, cookies, or server banners; `nosniff` and a CSP under which nothing runs. A body that
 * is not JSON is never served as a page: it goes out as plain text, and a web page (a sign-in in
 * front of the API) says so in `X-Upstream-Content-Type`, which is how the portal's client still
 * tells a sign-in page from data.
 */
export function hardenApiResponse(
  response: Response,
  body: BodyInit | null = response.body,
): Response {
  const headers = new Headers();
  const named = (response.headers.get('connection') ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  response.headers.forEach((value, key) => {
    if (DROPPED_RESPONSE_HEADERS.has(key) || named.includes(key)) return;
    if (key.startsWith('access-control-') || key.startsWith('proxy-')) return;
    if (key.startsWith('cross-origin-')) return;
    headers.append(key, value);
  });
  const contentType = response.headers.get('content-type');
  if (contentType !== null && !isJsonType(contentType)) {
    if (isHtmlType(contentType)) headers.set(UPSTREAM_TYPE_HEADER, 'text/html');
    headers.set('content-type', 'text/plain; charset=utf-8');
  }
  headers.set('x-content-type-options', 'nosniff');
  headers.set('content-security-policy', API_RESPONSE_CSP);
  headers.set('cross-origin-resource-policy', 'same-origin');
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * The mock's stand-in sign-in page is the one page an API path serves as HTML (a browser lands
 * on it): it runs no script, loads nothing, posts only to itself and is never framed.
 */
export function hardenSignInPage(response: Response): Response {
  const headers = new Headers(response.headers);
  for (const name of [...headers.keys()]) {
    if (name.startsWith('access-control-')) headers.delete(name);
  }
  headers.set(
    'content-security-policy',
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  );
  headers.set('x-content-type-options', 'nosniff');
  return new Response(response.body, { status: response.status, headers });
}
