/** The drawer route of one question; ids come from agents and the URL, so they are encoded. */
export function questionPath(id: string): string {
  return `/questions/${encodeURIComponent(id)}`;
}
