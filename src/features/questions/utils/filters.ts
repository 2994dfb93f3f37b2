import { jsonText } from '@/lib/bounded-json';
import { type Question, type QuestionStatus, questionStatuses } from '../api/schemas';

export type StatusFilter = QuestionStatus | 'all';
export type SortOrder = 'newest' | 'expiry' | 'resolved';

const sortOrders: SortOrder[] = ['expiry', 'newest', 'resolved'];

export interface InboxFilters {
  status: StatusFilter;
  q: string;
  tag: string | null;
  user: string | null;
  /** A configured source's id (config.json `sources[].id`); null: every source. */
  source: string | null;
  sort: SortOrder;
}

export const statusFilters: StatusFilter[] = [...questionStatuses, 'all'];
export const MAX_QUERY_LENGTH = 200;
const MAX_VALUE_LENGTH = 200;

/** Pending: soonest expiry first; Resolved: the latest resolved first; the others: newest first. */
export function defaultSort(status: StatusFilter): SortOrder {
  if (status === 'pending') return 'expiry';
  return status === 'resolved' ? 'resolved' : 'newest';
}

function cleanValue(value: string | null): string | null {
  if (value === null) return null;
  const trimmed = value.trim();
  return trimmed.length > 0 && trimmed.length <= MAX_VALUE_LENGTH ? trimmed : null;
}

/** URL parameters are untrusted: anything unknown falls back to its default. */
export function parseFilters(params: URLSearchParams): InboxFilters {
  const rawStatus = params.get('status');
  const status = statusFilters.includes(rawStatus as StatusFilter)
    ? (rawStatus as StatusFilter)
    : 'pending';
  const rawSort = params.get('sort');
  const sort = sortOrders.includes(rawSort as SortOrder)
    ? (rawSort as SortOrder)
    : defaultSort(status);
  return {
    status,
    q: (params.get('q') ?? '').slice(0, MAX_QUERY_LENGTH),
    tag: cleanValue(params.get('tag')),
    user: cleanValue(params.get('user')),
    source: cleanValue(params.get('source')),
    sort,
  };
}

/** Only what differs from the defaults goes into the URL. */
export function filtersToParams(filters: InboxFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.status !== 'pending') params.set('status', filters.status);
  if (filters.q.trim()) params.set('q', filters.q.trim());
  if (filters.tag) params.set('tag', filters.tag);
  if (filters.user) params.set('user', filters.user);
  if (filters.source) params.set('source', filters.source);
  if (filters.sort !== defaultSort(filters.status)) params.set('sort', filters.sort);
  return params;
}

export function hasNarrowingFilters(filters: InboxFilters): boolean {
  return (
    filters.q.trim() !== '' ||
    filters.tag !== null ||
    filters.user !== null ||
    filters.source !== null
  );
}

const haystacks = new WeakMap<Question, string>();

function haystack(question: Question): string {
  let text = haystacks.get(question);
  if (text === undefined) {
    text = [
      question.questionText,
      question.tags.join(' '),
      question.askerName ?? '',
      question.userId ?? '',
      question.toolName,
      question.id,
      question.source.label,
      question.answerFormat ?? '',
      question.result ? jsonText(question.result, { maxChars: 20_000 }).text : '',
    ]
      .join('\n')
      .toLocaleLowerCase();
    haystacks.set(question, text);
  }
  return text;
}

function searchWords(query: string): string[] {
  // No search (the first render of most pages): no locale's rules asked for.
  if (query.trim() === '') return [];
  return query.toLocaleLowerCase().split(/\s+/).filter(Boolean);
}

function matchesWords(question: Question, words: readonly string[]): boolean {
  if (words.length === 0) return true;
  const text = haystack(question);
  return words.every((word) => text.includes(word));
}

/** Every word must appear somewhere in the question's text, tags, user, tool, id or answer. */
export function matchesSearch(question: Question, query: string): boolean {
  return matchesWords(question, searchWords(query));
}

/**
 * Alphabetical, by letter whatever its case, then by code unit: the same order in every browser
 * and on the server, whatever their locale (localeCompare's order is the locale's: a server in one
 * and a reviewer in another rendered the tag picker in two orders). It needs no locale data either.
 */
export function compareText(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x !== y) return x < y ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareNewest(a: Question, b: Question): number {
  return (b.createdAt ?? 0) - (a.createdAt ?? 0) || compareText(a.id, b.id);
}

function compareExpiry(a: Question, b: Question): number {
  const ax = a.expiresAt ?? Number.POSITIVE_INFINITY;
  const bx = b.expiresAt ?? Number.POSITIVE_INFINITY;
  if (ax !== bx) return ax < bx ? -1 : 1;
  return compareNewest(a, b);
}

/** The latest resolved first; questions never resolved after them, newest first. */
function compareResolved(a: Question, b: Question): number {
  const ar = a.resolvedAt ?? Number.NEGATIVE_INFINITY;
  const br = b.resolvedAt ?? Number.NEGATIVE_INFINITY;
  if (ar !== br) return ar > br ? -1 : 1;
  return compareNewest(a, b);
}

const comparators: Record<SortOrder, (a: Question, b: Question) => number> = {
  expiry: compareExpiry,
  newest: compareNewest,
  resolved: compareResolved,
};

/**
 * The tag, user, source and search filters (not the status), as one test: the search's words are
 * split once per pass over the list, not once per question.
 */
function narrowing(filters: InboxFilters): (question: Question) => boolean {
  const words = searchWords(filters.q);
  return (question) =>
    (filters.tag === null || question.tags.includes(filters.tag)) &&
    (filters.user === null || question.userId === filters.user) &&
    (filters.source === null || question.source.id === filters.source) &&
    matchesWords(question, words);
}

export function applyFilters(questions: Question[], filters: InboxFilters): Question[] {
  const passes = narrowing(filters);
  const filtered = questions.filter(
    (question) =>
      (filters.status === 'all' || question.status === filters.status) && passes(question),
  );
  return filtered.sort(comparators[filters.sort]);
}

/**
 * How many questions of each status pass the tag, user, source and search filters (and `keep`):
 * the "2" of the status filter's "2 of 20". Null while no such filter is on. `view`, the questions the view shows
 * (`applyFilters` of the same filters), is counted as it is: only the other statuses are searched
 * in `questions` (at 10,000 questions, one pass of the search fewer on every keystroke), and the
 * view's own count is what the reviewer sees.
 */
export function shownPerStatus(
  questions: Question[],
  filters: InboxFilters,
  view?: Question[],
  /** Another part's filter on top (the Claimed filter), or null. */
  keep?: ((question: Question) => boolean) | null,
): Partial<Record<StatusFilter, number>> | null {
  if (!hasNarrowingFilters(filters) && !keep) return null;
  const shown: Partial<Record<StatusFilter, number>> = { all: 0 };
  const tally = (question: Question) => {
    shown.all = (shown.all ?? 0) + 1;
    shown[question.status] = (shown[question.status] ?? 0) + 1;
  };
  if (view && filters.status === 'all') {
    for (const question of view) tally(question);
  } else {
    const passes = narrowing(filters);
    for (const question of questions) {
      if (view && question.status === filters.status) continue;
      if (passes(question) && (!keep || keep(question))) tally(question);
    }
    if (view) {
      shown.all = (shown.all ?? 0) + view.length;
      shown[filters.status] = view.length;
    }
  }
  for (const status of questionStatuses) shown[status] ??= 0;
  return shown;
}

/** Distinct values for the tag and user pickers, most used first. */
export function facetValues(
  questions: Question[],
  pick: (question: Question) => string[],
): string[] {
  const counts = new Map<string, number>();
  for (const question of questions) {
    for (const value of pick(question)) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]))
    .map(([value]) => value);
}
