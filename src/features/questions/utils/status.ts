import { jsonText } from '@/lib/bounded-json';
import { ASK_HUMAN, type Question } from '../api/schemas';

export function isAskHuman(question: Question): boolean {
  return question.toolName === ASK_HUMAN;
}

export function isNotApplicable(question: Question): boolean {
  return question.result?.not_applicable === true;
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

/** Warning under an hour, danger under five minutes. */
export function urgency(msLeft: number): 'danger' | 'warning' | 'calm' {
  if (msLeft < 5 * 60_000) return 'danger';
  if (msLeft < 60 * 60_000) return 'warning';
  return 'calm';
}
