import { QUESTIONS_PATH } from '@/config/routes';

/**
 * An id as one path segment. Ids come from agents: encodeURIComponent alone leaves `.` and `..`
 * as they are, and the URL parser removes those segments (`/questions/..` is `/`), so ids made of
 * dots, and ids starting with `~` (to keep the mapping one-to-one), get a `~` in front.
 */
export function idSegment(id: string): string {
  return encodeURIComponent(/^(\.+$|~)/.test(id) ? `~${id}` : id);
}

/**
 * The open question's id from a location's pathname (still encoded, as the router keeps it), or
 * undefined. Read from the pathname rather than the router's params, which decode `%252F` to `/`.
 */
const questionInPath = new RegExp(`${QUESTIONS_PATH}/([^/]+)/?$`);

export function questionIdFromPath(pathname: string): string | undefined {
  const match = questionInPath.exec(pathname);
  if (!match?.[1]) return undefined;
  let segment: string;
  try {
    segment = decodeURIComponent(match[1]);
  } catch {
    segment = match[1];
  }
  return segment.startsWith('~') ? segment.slice(1) : segment;
}

/** The drawer route of one question. */
export function questionPath(id: string): string {
  return `${QUESTIONS_PATH}/${idSegment(id)}`;
}

/**
 * A row link's href: `listHref` is what the router makes of QUESTIONS_PATH (`useHref`, so it has
 * the deployment's sub-path), `search` the list's query string without its "?".
 */
export function questionHref(listHref: string, id: string, search: string): string {
  return `${listHref}/${idSegment(id)}${search ? `?${search}` : ''}`;
}
