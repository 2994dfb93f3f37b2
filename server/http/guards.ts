// Checks every request to an API or control surface passes before it reaches an upstream. Each
// returns the refusal to send, or null to let the request through, so one list of guards serves
// the mock, a real Reflexio and any upstream added later.

export interface GuardOptions {
  /**
   * `host:port` values the server answers for. A page that rebinds its own name to this machine
   * (DNS rebinding) sends its own name as Host and is refused. Omit to accept any Host.
   */
  allowedHosts?: string[];
}

export type Guard = (request: Request) => Response | null;

const READS = new Set(['GET', 'HEAD']);

/** Content types a plain HTML `<form>` can send cross-site without asking the server first. */
const FORM_CONTENT_TYPES = new Set([
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
]);

export function refusal(status: number, detail: string, headers?: Record<string, string>) {
  return new Response(JSON.stringify({ detail }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export function isWrite(method: string): boolean {
  return !READS.has(method.toUpperCase());
}

export function hostGuard(options: GuardOptions): Guard {
  const allowed = options.allowedHosts?.map((host) => host.toLowerCase());
  return (request) => {
    if (!allowed) return null;
    const host = (request.headers.get('host') ?? '').toLowerCase();
    if (allowed.includes(host)) return null;
    return refusal(403, 'Host not allowed: set ALLOWED_HOSTS to serve the portal under this name');
  };
}

/** The `host[:port]` of an Origin header value, or null for `null` and anything unparsable. */
function originHost(origin: string): string | null {
  try {
    const url = new URL(origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.host.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Only the portal's own pages may change anything. Browsers say where a request comes from:
 * `Sec-Fetch-Site` where they send it (Chromium does not on plain HTTP to a host other than
 * localhost), else `Origin`, which every browser sends on a cross-origin write. A request with
 * neither comes from no browser page (curl, a script, another server) and is let through: it
 * holds no reviewer's cookies and could call Reflexio itself.
 */
export function crossSiteWriteGuard(options: GuardOptions): Guard {
  const allowed = new Set(options.allowedHosts?.map((host) => host.toLowerCase()));
  return (request) => {
    if (!isWrite(request.method)) return null;
    const refused = () =>
      refusal(
        403,
        'Cross-site request refused: only the portal’s own pages may change questions. Open the portal at its own address and try again.',
      );
    const site = request.headers.get('sec-fetch-site');
    if (site !== null) return site === 'same-origin' || site === 'none' ? null : refused();
    const origin = request.headers.get('origin');
    if (origin === null) return null;
    const from = originHost(origin);
    const own = (request.headers.get('host') ?? '').toLowerCase();
    if (from !== null && (from === own || allowed.has(from))) return null;
    return refused();
  };
}

/**
 * A plain HTML form can post `text/plain`, url-encoded or multipart bodies to any site without a
 * CORS preflight; the API takes JSON only, so those are refused whatever their origin.
 */
export function formContentTypeGuard(): Guard {
  return (request) => {
    if (!isWrite(request.method)) return null;
    const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    if (!type || !FORM_CONTENT_TYPES.has(type)) return null;
    return refusal(
      415,
      `Unsupported content type ${type}: the API takes JSON (Content-Type: application/json).`,
    );
  };
}

/** The first refusal of `guards`, or null when every one lets the request through. */
export function runGuards(guards: Guard[], request: Request): Response | null {
  for (const guard of guards) {
    const refused = guard(request);
    if (refused) return refused;
  }
  return null;
}
