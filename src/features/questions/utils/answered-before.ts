import type { Question } from '../api/schemas';
import { lookalikeKey } from './lookalikes';
import { answerText, isNotApplicable } from './status';

export interface EarlierAnswer {
  /** The question that was answered (the newest one that got this text). */
  question: Question;
  text: string;
  at: number | null;
}

/** How many earlier answers the drawer lists. */
export const EARLIER_ANSWERS = 5;

/** Answered questions (resolved or superseded) by look-alike key, per list: built once a list. */
const answeredIndexes = new WeakMap<readonly Question[], Map<string, Question[]>>();

function answeredByKey(candidates: readonly Question[]): Map<string, Question[]> {
  let index = answeredIndexes.get(candidates);
  if (index) return index;
  index = new Map();
  for (const candidate of candidates) {
    // Most of a long list is pending: ruled out before anything costlier.
    if (candidate.status !== 'resolved' && candidate.status !== 'superseded') continue;
    const key = lookalikeKey(candidate);
    if (key === null) continue;
    const same = index.get(key);
    if (same) same.push(candidate);
    else index.set(key, [candidate]);
  }
  answeredIndexes.set(candidates, index);
  return index;
}

/**
 * The latest answers already given to the same question (resolved or superseded calls with the
 * same look-alike key: for Reflexio the same `scope_hash`, tool and `dedup_key`), newest first.
 * An answer given several times is listed once, at its latest. "Not applicable" is no answer.
 * The list's answered questions are indexed by key once per list (lists are never changed in
 * place): opening a question in a list of 10,000 does not walk all of them each time.
 */
export function answeredBefore(
  question: Question,
  candidates: readonly Question[],
  limit = EARLIER_ANSWERS,
): EarlierAnswer[] {
  const key = lookalikeKey(question);
  if (key === null) return [];
  const found: EarlierAnswer[] = [];
  const seenIds = new Set<string>([question.id]);
  for (const candidate of answeredByKey(candidates).get(key) ?? []) {
    if (seenIds.has(candidate.id)) continue;
    seenIds.add(candidate.id);
    if (isNotApplicable(candidate)) continue;
    const text = answerText(candidate);
    if (text === null || !text.trim()) continue;
    found.push({ question: candidate, text, at: candidate.resolvedAt ?? candidate.createdAt });
  }
  found.sort((a, b) => (b.at ?? 0) - (a.at ?? 0));
  const texts = new Set<string>();
  const latest: EarlierAnswer[] = [];
  for (const answer of found) {
    if (texts.has(answer.text)) continue;
    texts.add(answer.text);
    latest.push(answer);
    if (latest.length === limit) break;
  }
  return latest;
}
