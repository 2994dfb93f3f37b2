// The reviewer named in the browser (no SSO proxy): remembered in localStorage and sent to the
// portal server as a SameSite cookie, which it honours only when REVIEWER_HEADER is unset (and
// the trail marks the entries as self-named).
const KEY = 'qi.reviewer';
const COOKIE = 'qi_reviewer';
export const DEFAULT_REVIEWER = 'Reviewer';

export function readBrowserReviewer(): string {
  try {
    return localStorage.getItem(KEY) || DEFAULT_REVIEWER;
  } catch {
    return DEFAULT_REVIEWER;
  }
}

// What the server refuses in a name (server/identity/identity.ts): controls and direction controls.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is taken out
const UNSHOWABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/** Keeps `name` (blank: the default) and returns what is kept. */
export function writeBrowserReviewer(name: string): string {
  const kept = name.replace(UNSHOWABLE, '').trim().slice(0, 200) || DEFAULT_REVIEWER;
  try {
    localStorage.setItem(KEY, kept);
  } catch {
    // Storage full or off: the cookie still carries it for this session.
  }
  // Host-only (no Domain) and on `/`: a cookie a sibling site tosses in on a longer path comes
  // first, and the server takes the last. Over HTTPS, `__Host-`: no other site can set that one.
  const secure = location.protocol === 'https:';
  // biome-ignore lint/suspicious/noDocumentCookie: one cookie, written once per change; the Cookie Store API is not in every browser the portal supports.
  document.cookie = `${secure ? '__Host-' : ''}${COOKIE}=${encodeURIComponent(kept)}; path=/; max-age=31536000; SameSite=Strict${secure ? '; Secure' : ''}`;
  return kept;
}
