// The reviewer named in the browser (no SSO proxy): remembered in localStorage and sent to the
// portal server as a SameSite cookie, which it honours only when REVIEWER_HEADER is unset.
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

/** Keeps `name` (blank: the default) and returns what is kept. */
export function writeBrowserReviewer(name: string): string {
  const kept = name.trim().slice(0, 200) || DEFAULT_REVIEWER;
  try {
    localStorage.setItem(KEY, kept);
  } catch {
    // Storage full or off: the cookie still carries it for this session.
  }
  const path = new URL(document.baseURI).pathname;
  // biome-ignore lint/suspicious/noDocumentCookie: one cookie, written once per change; the Cookie Store API is not in every browser the portal supports.
  document.cookie = `${COOKIE}=${encodeURIComponent(kept)}; path=${path}; max-age=31536000; SameSite=Strict`;
  return kept;
}
