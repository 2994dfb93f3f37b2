// The read API's filters: parsed from the query (a 400 names what is wrong), and matched the
// way server/audit/queries.ts asks the database (the demo's trail in memory uses this).
import { MAX_QUESTION_ID_LENGTH } from './actions';
import {
  type AuditEntry,
  type AuditFilter,
  auditActions,
  NUL,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  SEARCHED_ANSWER_CHARS,
} from './types';

type Parsed =
  | { filter: AuditFilter; page: { cursor: number | null; limit: number } }
  | { error: string };

/** The read API's query: `question` (repeatable), `source`, `reviewer`, `action`, `from`, `to`, `q`, `cursor`, `limit`. */
export function parseQuery(params: URLSearchParams): Parsed {
  const filter: AuditFilter = {};
  for (const [name, value] of params) {
    if (value.includes(NUL)) return { error: `${name} holds a NUL character (%00): remove it.` };
  }
  const text = (name: string) => params.get(name)?.trim().slice(0, 500) || undefined;
  const questions = params
    .getAll('question')
    .map((q) => q.trim())
    .filter(Boolean);
  if (questions.length > 100) return { error: 'At most 100 question ids at once.' };
  if (questions.some((q) => q.length > MAX_QUESTION_ID_LENGTH)) {
    return { error: `A question id is at most ${MAX_QUESTION_ID_LENGTH} characters.` };
  }
  if (questions.length) filter.questionIds = questions;
  filter.sourceId = text('source');
  filter.reviewer = text('reviewer');
  filter.search = text('q');
  const action = text('action');
  if (action && !(auditActions as readonly string[]).includes(action)) {
    return { error: `Unknown action "${action}": one of ${auditActions.join(', ')}.` };
  }
  filter.action = action;
  for (const name of ['from', 'to'] as const) {
    const value = text(name);
    if (value === undefined) continue;
    const time = Date.parse(value);
    const year = Number.isNaN(time) ? 0 : new Date(time).getUTCFullYear();
    if (year < 1 || year > 9999) {
      return { error: `${name} must be a date or time (ISO 8601) from year 1 to 9999.` };
    }
    filter[name] = new Date(time).toISOString();
  }
  const limitText = text('limit');
  const limit = limitText === undefined ? PAGE_LIMIT_DEFAULT : Number(limitText);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > PAGE_LIMIT_MAX) {
    return { error: `limit must be a whole number from 1 to ${PAGE_LIMIT_MAX}.` };
  }
  const cursorText = text('cursor');
  const cursor = cursorText === undefined ? null : Number(cursorText);
  if (cursor !== null && (!Number.isSafeInteger(cursor) || cursor < 1)) {
    return { error: 'cursor is not one this server gave.' };
  }
  return { filter, page: { cursor, limit } };
}

/**
 * Whether `entry` passes `filter`, as server/audit/queries.ts asks PostgreSQL: the search is
 * case-insensitive over the reviewer, question id, the answer's first 500 characters (what the
 * search index holds, so that no write pays for more), reviewer's name (each on its own, never
 * across two) and what the question asked; the reviewer is a part of the address or name;
 * `from` inclusive and `to` exclusive.
 */
export function entryMatches(entry: AuditEntry, filter: AuditFilter): boolean {
  if (filter.sourceId && entry.sourceId !== filter.sourceId) return false;
  if (filter.questionIds?.length && !filter.questionIds.includes(entry.questionId)) return false;
  if (filter.reviewer) {
    const part = filter.reviewer.toLowerCase();
    const names = [entry.reviewer, entry.reviewerName ?? ''].map((name) => name.toLowerCase());
    if (!names.some((name) => name.includes(part))) return false;
  }
  if (filter.action && entry.action !== filter.action) return false;
  const at = Date.parse(entry.at);
  if (filter.from && at < Date.parse(filter.from)) return false;
  if (filter.to && at >= Date.parse(filter.to)) return false;
  if (filter.search) {
    const searched = [
      entry.reviewer,
      entry.questionId,
      Array.from(entry.answer ?? '')
        .slice(0, SEARCHED_ANSWER_CHARS)
        .join(''),
      entry.reviewerName ?? '',
    ]
      .join('\u0001')
      .toLowerCase();
    const wanted = filter.search.toLowerCase();
    if (!searched.includes(wanted) && !(entry.asked ?? '').toLowerCase().includes(wanted)) {
      return false;
    }
  }
  return true;
}
