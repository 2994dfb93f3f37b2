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

/**
 * The latest answers already given to the same question (resolved or superseded calls with the
 * same look-alike key: for Reflexio the same `scope_hash`, tool and `dedup_key`), newest first.
 * An answer given several times is listed once, at its latest. "Not applicable" is no answer.
 */
export function answeredBefore(
  question: Question,
  candidates: Iterable<Question>,
  limit = EARLIER_ANSWERS,
): EarlierAnswer[] {
  const key = lookalikeKey(question);
  if (key === null) return [];
  const found: EarlierAnswer[] = [];
  const seenIds = new Set<string>([question.id]);
  for (const candidate of candidates) {
    // Most of a long list is pending: ruled out before anything costlier.
    if (candidate.status !== 'resolved' && candidate.status !== 'superseded') continue;
    if (seenIds.has(candidate.id)) continue;
    seenIds.add(candidate.id);
    if (isNotApplicable(candidate) || lookalikeKey(candidate) !== key) continue;
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
