// URLs as they may be printed: at start-up, in a refusal, in a log line. A password may hold any
// character, `@ # ? /` included (percent-encoded or not), so the user information is taken to end
// at the last `@`, not at the first character a URL parser would stop at: a password that reads as
// a fragment (`p#ss`) was printed whole. Over-cutting a host is harmless; under-cutting is a leak.

const SCHEME = /^([a-z][a-z0-9+.-]*:\/\/)/i;
/** Query parameters libpq and node-postgres read a password or a key from. */
const SECRET_PARAMS = /([?&](?:ssl)?(?:password|passwd|pass|sslkey|key|token|secret)=)[^&#\s]*/gi;

/** The user information of a URL (`user:password`), raw, or null. */
function userinfo(value: string): string | null {
  const scheme = SCHEME.exec(value);
  if (!scheme) return null;
  const rest = value.slice(scheme[0].length);
  const at = rest.lastIndexOf('@');
  return at >= 0 ? rest.slice(0, at) : null;
}

/** `postgres://***@db:5432/inbox`: a URL without its user name, password or secret parameters. */
export function redactUrl(value: string): string {
  const scheme = SCHEME.exec(value);
  const info = userinfo(value);
  const base =
    scheme && info !== null
      ? `${scheme[1]}***@${value.slice(scheme[0].length + info.length + 1)}`
      : value;
  return base.replace(SECRET_PARAMS, '$1***');
}

/**
 * `text` (an error's message) with every trace of `url`'s credentials taken out: the URL itself,
 * its password as written and decoded, and any other `scheme://user@` in it.
 */
export function redactSecrets(text: string, url?: string | null): string {
  let out = text;
  if (url) {
    out = out.split(url).join(redactUrl(url));
    const info = userinfo(url);
    const colon = info?.indexOf(':') ?? -1;
    const password = info && colon >= 0 ? info.slice(colon + 1) : null;
    if (password) {
      let decoded = password;
      try {
        decoded = decodeURIComponent(password);
      } catch {
        // Not valid percent-encoding: the raw form is all there is.
      }
      for (const secret of new Set([password, decoded])) out = out.split(secret).join('***');
    }
  }
  return out.replace(/([a-z][a-z0-9+.-]*:\/\/)\S*@/gi, '$1***@').replace(SECRET_PARAMS, '$1***');
}
