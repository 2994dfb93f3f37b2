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
/** The same, where the portal is served over HTTPS: host-only and on `/`, by the browser's rules. */
export const SECURE_REVIEWER_COOKIE = `__Host-${BROWSER_REVIEWER_COOKIE}`;
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

/** Characters no name is shown with: controls (NUL, line breaks, C1) and direction controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const UNSHOWABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;

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

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A header value as the proxy meant it: HTTP carries bytes, which Node reads as Latin-1, so a
 * name sent as UTF-8 ("Łukasz") arrives as "Å\u0081ukasz". Read as UTF-8 where it is that.
 */
function headerText(value: string | null): string | null {
  if (value === null || !/[\u0080-\u00ff]/.test(value) || /[^\u0020-\u00ff]/.test(value))
    return value;
  try {
    return utf8.decode(Uint8Array.from(value, (char) => char.charCodeAt(0)));
  } catch {
    return value;
  }
}

/** The browser's name cookies, `__Host-` first (only a secure page of this very host sets it). */
function cookie(headers: Headers): string | null {
  const found = new Map<string, string>();
  for (const part of (headers.get('cookie') ?? '').split(';')) {
    const at = part.indexOf('=');
    const name = at > 0 ? part.slice(0, at).trim() : '';
    // Of several with one name the last is the portal's: a browser sends the longest path first,
    // and the portal's own is on `/` (one tossed in from a sibling on `/api` comes before it).
    if (name === BROWSER_REVIEWER_COOKIE || name === SECURE_REVIEWER_COOKIE)
      found.set(name, part.slice(at + 1));
  }
  return found.get(SECURE_REVIEWER_COOKIE) ?? found.get(BROWSER_REVIEWER_COOKIE) ?? null;
}

function json(status: number, detail: string): Response {
  return new Response(JSON.stringify({ detail }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

function unshowable(value: string | null, from: string): Response | null {
  const found = value === null ? null : UNSHOWABLE.exec(value);
  if (!found) return null;
  const code = `U+${(found[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
  return json(
    400,
    `${from} holds a control or direction character (${code}): a reviewer's name must be plain text on one line.`,
  );
}

/**
 * The reviewer of a request, or the answer that refuses it: 401 when REVIEWER_HEADER is set and
 * the request lacks it, 400 for a name with a control or direction character (it would show as
 * another name, or break the trail's lines).
 */
export function identify(headers: Headers, config: IdentityConfig): Reviewer | Response {
  if (config.header) {
    const id = headerText(headers.get(config.header));
    const name = config.nameHeader ? decoded(headerText(headers.get(config.nameHeader))) : null;
    const refused =
      unshowable(id, `The ${config.header} header`) ??
      (config.nameHeader ? unshowable(name, `The ${config.nameHeader} header`) : null);
    if (refused) return refused;
    const cleanId = clean(id);
    if (!cleanId) return missingIdentity(config);
    return { id: cleanId, name: clean(name), from: 'sso' };
  }
  const typed = decoded(headers.get(BROWSER_REVIEWER_HEADER)) ?? decoded(cookie(headers));
  const refused = unshowable(typed, 'The name under "You are …"');
  if (refused) return refused;
  return { id: clean(typed) ?? DEFAULT_REVIEWER, name: null, from: 'browser' };
}

/** The headers that name the reviewer: each may come once in a request, and none goes upstream. */
export function identityHeaders(config: IdentityConfig): string[] {
  return [BROWSER_REVIEWER_HEADER, config.header, config.nameHeader].filter(
    (name): name is string => Boolean(name),
  );
}

/**
 * The request without any identity header, as it goes upstream. Its body is left out: the portal
 * has already read it and passes it on separately.
 */
export function withoutIdentity(request: Request, config: IdentityConfig): Request {
  const names = identityHeaders(config);
  const cookies = request.headers.get('cookie');
  const kept = cookies
    ?.split(';')
    .filter((part) => {
      const name = part.split('=')[0]?.trim();
      return name !== BROWSER_REVIEWER_COOKIE && name !== SECURE_REVIEWER_COOKIE;
    })
    .join(';');
  if (!names.some((name) => request.headers.has(name)) && kept === cookies) return request;
  const headers = new Headers(request.headers);
  for (const name of names) headers.delete(name);
  if (kept?.trim()) headers.set('cookie', kept.trim());
  else headers.delete('cookie');
  return new Request(request.url, { method: request.method, headers, signal: request.signal });
}

function missingIdentity(config: IdentityConfig): Response {
  return json(
    401,
    `Not signed in: the SSO proxy in front of the portal must set the ${config.header} header on every request.`,
  );
}
