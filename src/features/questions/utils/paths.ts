import { QUESTIONS_PATH } from '@/config/routes';

/** The drawer route of one question; ids come from agents and the URL, so they are encoded. */
export function questionPath(id: string): string {
  return `${QUESTIONS_PATH}/${encodeURIComponent(id)}`;
}

/**
 * A row link's href: `listHref` is what the router makes of QUESTIONS_PATH (`useHref`, so it has
 * the deployment's sub-path), `search` the list's query string without its "?".
 */
export function questionHref(listHref: string, id: string, search: string): string {
  return `${listHref}/${encodeURIComponent(id)}${search ? `?${search}` : ''}`;
}
