/**
 * The short answers this browser sent lately, newest first: offered on free-text questions as
 * "Your recent answers" (keys 1–5), so a reviewer who gives the same few answers all day types
 * each once. Kept in localStorage like the other choices (hooks/use-recent-answers); "Forget"
 * removes them. Only one-line answers up to RECENT_ANSWER_MAX_LENGTH characters are kept: a long
 * answer is about one question, not a reply to reuse.
 */

export const RECENT_ANSWERS_KEPT = 5;
export const RECENT_ANSWER_MAX_LENGTH = 80;

/** Whether `text` (already trimmed) is the kind of answer worth offering again. */
export function isReusableAnswer(text: string): boolean {
  return text.length > 0 && text.length <= RECENT_ANSWER_MAX_LENGTH && !/[\r\n]/.test(text);
}

/** The stored list, keeping only what could have been stored (another version, a hand edit). */
export function parseRecentAnswers(raw: string | null | undefined): string[] {
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    if (!Array.isArray(value)) return [];
    return value
      .filter((item): item is string => typeof item === 'string' && isReusableAnswer(item))
      .slice(0, RECENT_ANSWERS_KEPT);
  } catch {
    return [];
  }
}

/**
 * `answers` with `answer` first (once); the oldest beyond RECENT_ANSWERS_KEPT drop off. An answer
 * the question offered anyway (its format's quick answers, `offered`) is not worth a place: the
 * list comes back unchanged.
 */
export function withRecentAnswer(
  answers: string[],
  answer: string,
  offered: readonly string[] = [],
): string[] {
  const text = answer.trim();
  if (!isReusableAnswer(text) || offered.includes(text) || answers[0] === text) return answers;
  return [text, ...answers.filter((item) => item !== text)].slice(0, RECENT_ANSWERS_KEPT);
}
