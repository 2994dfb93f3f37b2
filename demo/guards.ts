// The portal server's cross-site rules (server/http/guards.ts), as the demo's Service Worker can apply
// them. A worker sees no Origin or Sec-Fetch-Site header; what it sees is enough: a cross-site
// page reaches the worker only by navigating to it (a form's POST into the demo's scope: its fetch
// calls go to the static host, which the worker does not stand in front of for that page). The
// portal's own pages change things with fetch, never by navigating, and never with the content
// types a plain form sends. Only the mock's stand-in sign-in page posts a form, to itself.

/** What the worker knows of a request (a Request has all of it). */
export interface SeenRequest {
  method: string;
  mode: string;
  referrer: string;
  headers: Pick<Headers, 'get'>;
}

const FORM_CONTENT_TYPES = new Set([
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
]);

function refusal(status: number, detail: string): Response {
  return new Response(JSON.stringify({ detail }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return url !== '' && new URL(url).origin === origin;
  } catch {
    return false;
  }
}

/**
 * The refusal for a request to a demo mock (`path` is the backend's own: `/__mock/…`, `/api/…`),
 * or null to answer it.
 */
export function demoRefusal(request: SeenRequest, path: string, origin: string): Response | null {
  const method = request.method.toUpperCase();
  if (method === 'GET' || method === 'HEAD') return null;
  const signIn = path === '/__mock/sign-in';
  if (request.mode === 'navigate' && !(signIn && sameOrigin(request.referrer, origin))) {
    return refusal(
      403,
      'Cross-site request refused: only the portal’s own pages may change questions. Open the portal at its own address and try again.',
    );
  }
  const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (!signIn && type && FORM_CONTENT_TYPES.has(type)) {
    return refusal(
      415,
      `Unsupported content type ${type}: the API takes JSON (Content-Type: application/json).`,
    );
  }
  return null;
}
