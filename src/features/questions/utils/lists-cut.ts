/**
 * Whether this inbox's unfiltered list was cut at the API's limit when it was last read,
 * remembered in this browser for the portal's path. Below the limit, a first load asks each source
 * for its unfiltered list only and cuts the view from it; at the limit, the view's own list comes
 * first. public/prefetch.js reads the same key to ask for the list the app will ask for first
 * (src/app/prefetch.test.ts checks they agree).
 */
const key = () => `qi:lists-cut:${new URL(document.baseURI).pathname}`;

export function readListsCut(): boolean {
  try {
    return localStorage.getItem(key()) === '1';
  } catch {
    return false;
  }
}

export function rememberListsCut(cut: boolean): void {
  try {
    if (cut) localStorage.setItem(key(), '1');
    else localStorage.removeItem(key());
  } catch {
    // Storage refused (a sandboxed frame): the next load asks as if nothing were known.
  }
}

/** The list a first load asks for first: the unfiltered one, or the view's own when that was cut. */
export function firstListStatus<Status extends string>(view: Status): Status | 'all' {
  return readListsCut() ? view : 'all';
}
