// What a browser sends the team's routes, read defensively: JSON answers, records, and the short
// printable ids of systems and questions (server/team/core.ts uses these for every body it takes).

/** The longest question id taken (ids of the systems are far shorter). */
export const ID_MAX = 300;

export function json(status: number, value: unknown): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}

export function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

export interface Ref {
  sourceId: string | null;
  questionId: string | null;
}

/** Control, format and line-separator characters: no id of a system holds one. */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

export function text(value: unknown, max = ID_MAX): string | null {
  return typeof value === 'string' &&
    value.trim() &&
    value.length <= max &&
    !UNPRINTABLE.test(value)
    ? value.trim()
    : null;
}
