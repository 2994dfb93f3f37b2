// Who is acting. Behind an SSO proxy (REVIEWER_HEADER set) only the header the proxy sets counts;
// run locally (npm start) the reviewer names themself in the browser, which sends that name in
// BROWSER_REVIEWER_HEADER. Neither header ever reaches an upstream.

/** The header a client may send with the name typed in "You are …" (local use only). */
export const BROWSER_REVIEWER_HEADER = 'x-portal-reviewer';
/**
 * The cookie the portal's pages keep that name in (SameSite=Strict): every same-origin request
 * carries it without a line of code in the first screen's JavaScript.
 */
export const BROWSER_REVIEWER_COOKIE = 'qi_reviewer';
export const DEFAULT_REVIEWER = 'Reviewer';
const MAX_LENGTH = 200;

export interface IdentityConfig {
  /** REVIEWER_HEADER, lower-cased; null when the browser names the reviewer. */
  header: string | null;
  /** REVIEWER_NAME_HEADER, lower-cased: a display name, if the proxy sends one. */
  nameHeader: string | null;
}

export interface Reviewer {
  id: string;
  name: string | null;
  /** `sso`: from the proxy's header; `browser`: named in the page (no proxy). */
  from: 'sso' | 'browser';
}

/** A header name as HTTP allows one (RFC 9110 token), or null. */
export function parseHeaderName(value: string | undefined): string | null {
  const trimmed = (value ?? '').trim();
  if (!trimmed) return null;
  return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(trimmed) ? trimmed.toLowerCase() : null;
}

function clean(value: string | null): string | null {
  const trimmed = value?.trim().slice(0, MAX_LENGTH);
  return trimmed ? trimmed : null;
}

function decoded(value: string | null): string | null {
  if (value === null) return null;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function cookie(headers: Headers): string | null {
  for (const part of (headers.get('cookie') ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === BROWSER_REVIEWER_COOKIE) return part.slice(at + 1);
  }
  return null;
}

/** The reviewer of a request, or null when REVIEWER_HEADER is set and the request lacks it. */
export function readReviewer(headers: Headers, config: IdentityConfig): Reviewer | null {
  if (config.header) {
    const id = clean(headers.get(config.header));
    if (!id) return null;
    const name = config.nameHeader ? clean(decoded(headers.get(config.nameHeader))) : null;
    return { id, name, from: 'sso' };
  }
  const named =
    clean(decoded(headers.get(BROWSER_REVIEWER_HEADER))) ?? clean(decoded(cookie(headers)));
  return { id: named ?? DEFAULT_REVIEWER, name: null, from: 'browser' };
}

/**
 * The request without any identity header, as it goes upstream. Its body is left out: the portal
 * has already read it and passes it on separately.
 */
export function withoutIdentity(request: Request, config: IdentityConfig): Request {
  const names = [BROWSER_REVIEWER_HEADER, config.header, config.nameHeader].filter(
    (name): name is string => Boolean(name),
  );
  const cookies = request.headers.get('cookie');
  const kept = cookies
    ?.split(';')
    .filter((part) => part.split('=')[0]?.trim() !== BROWSER_REVIEWER_COOKIE)
    .join(';');
  if (!names.some((name) => request.headers.has(name)) && kept === cookies) return request;
  const headers = new Headers(request.headers);
  for (const name of names) headers.delete(name);
  if (kept?.trim()) headers.set('cookie', kept.trim());
  else headers.delete('cookie');
  return new Request(request.url, { method: request.method, headers, signal: request.signal });
}

export function missingIdentity(config: IdentityConfig): Response {
  return new Response(
    JSON.stringify({
      detail: `Not signed in: the SSO proxy in front of the portal must set the ${config.header} header on every request.`,
    }),
    { status: 401, headers: { 'content-type': 'application/json' } },
  );
}
