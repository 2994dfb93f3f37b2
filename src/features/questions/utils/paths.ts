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

/**
 * A look-alike group's address is its first ask's, with `asks=all`: `/questions/<id>?asks=all`.
 * Without it the same address opens that one ask alone, so a link to a member keeps working.
 */
export const GROUP_PARAM = 'asks';

/** The list's query string with the group marker added (`search` without its "?"). */
export function withGroup(search: string): string {
  return `${search ? `${search}&` : ''}${GROUP_PARAM}=all`;
}

/** Whether the address asks for the open question's whole group. */
export function isGroupOpen(params: URLSearchParams): boolean {
  return params.get(GROUP_PARAM) === 'all';
}

/** The query string without the group marker: what the list's own links and steps keep. */
export function withoutGroup(params: URLSearchParams): string {
  if (!params.has(GROUP_PARAM)) return params.toString();
  const rest = new URLSearchParams(params);
  rest.delete(GROUP_PARAM);
  return rest.toString();
}
