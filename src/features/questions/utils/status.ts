import { jsonText } from '@/lib/bounded-json';
import { ASK_HUMAN, type Question } from '../api/schemas';

export function isAskHuman(question: Question): boolean {
  return question.toolName === ASK_HUMAN;
}

export function isNotApplicable(question: Question): boolean {
  return question.notApplicable;
}

/** The answer text of a resolved question, or null when its result is not a plain answer. */
export function answerText(question: Question): string | null {
  const answer = question.result?.answer;
  return typeof answer === 'string' ? answer : null;
}

/** One line for the list: the answer, "Not applicable", or the raw result. */
export function resultSummary(question: Question): string | null {
  if (!question.result) return null;
  if (isNotApplicable(question)) return 'Not applicable';
  const answer = answerText(question);
  if (answer !== null && Object.keys(question.result).length === 1) return answer;
  return jsonText(question.result, { maxChars: 400 }).text;
}

/** Under this long left a question is urgent whatever its life. */
export const URGENT_LEFT_MS = 10 * 60_000;
/** …and under this share of its life (from asked to expiry) left. */
export const URGENT_LIFE_SHARE = 0.1;
/** The most urgent colour: the last minutes (also the tab title's "Expiring soon", see pending-badge). */
export const DANGER_LEFT_MS = 5 * 60_000;

/**
 * How urgent a countdown looks. Colours are kept for what is truly urgent: under 10 minutes left,
 * or under 10 % of its life left (`lifeMs`, asked to expiry, when known); danger under 5 minutes.
 * A question due within the hour but asked a moment ago is calm.
 */
export function urgency(
  msLeft: number,
  lifeMs: number | null = null,
): 'danger' | 'warning' | 'calm' {
  if (msLeft < DANGER_LEFT_MS) return 'danger';
  if (msLeft < URGENT_LEFT_MS) return 'warning';
  if (lifeMs !== null && lifeMs > 0 && msLeft < lifeMs * URGENT_LIFE_SHARE) return 'warning';
  return 'calm';
}
