import type { PromptAnswer, Question, QuestionPrompt } from '../api/schemas';
import { MAX_ANSWER_LENGTH } from './answer-format';

/**
 * A question that holds several questions (a Vertesia ask, a Bilby tool call) is answered one
 * field per question; these are the rules of that form, apart from any component.
 *
 * - `single`: one box (Reflexio; an ask or call with one question and no options);
 * - `texts`: one box per question (a Vertesia ask with several questions);
 * - `choices`: per question, its options (one, or several when multi-select) and/or the
 *   reviewer's own words (Bilby).
 */
export type PromptFormKind = 'single' | 'texts' | 'choices';

export function promptFormKind(question: Pick<Question, 'prompts'>): PromptFormKind {
  const prompts = question.prompts ?? [];
  if (prompts.some((prompt) => prompt.options.length > 0)) return 'choices';
  return prompts.length > 1 ? 'texts' : 'single';
}

export function emptyAnswers(prompts: readonly QuestionPrompt[]): PromptAnswer[] {
  return prompts.map(() => ({ selected: [], custom: '' }));
}

/** The form's state as the draft store keeps it (drafts are text). */
export function serializeAnswers(answers: readonly PromptAnswer[]): string {
  return JSON.stringify({ answers });
}

/**
 * A saved draft back into one answer per prompt. Whatever does not fit the prompts as they are now
 * (a label no longer offered, a second choice on a single-select) is left out, never sent; text
 * that is not such a draft (typed before the form had fields) becomes the first question's words.
 */
export function parseAnswers(text: string, prompts: readonly QuestionPrompt[]): PromptAnswer[] {
  const answers = emptyAnswers(prompts);
  if (text.trim() === '') return answers;
  let saved: unknown;
  try {
    saved = JSON.parse(text);
  } catch {
    saved = null;
  }
  const list = (saved as { answers?: unknown } | null)?.answers;
  if (!Array.isArray(list)) {
    const first = answers[0];
    if (first) first.custom = text;
    return answers;
  }
  prompts.forEach((prompt, index) => {
    const item = list[index] as { selected?: unknown; custom?: unknown } | undefined;
    const labels = new Set(prompt.options.map((option) => option.label));
    const selected = Array.isArray(item?.selected)
      ? item.selected.filter(
          (label): label is string => typeof label === 'string' && labels.has(label),
        )
      : [];
    answers[index] = {
      selected: prompt.multiSelect ? [...new Set(selected)] : selected.slice(0, 1),
      custom: typeof item?.custom === 'string' ? item.custom : '',
    };
  });
  return answers;
}

/** Whether the reviewer has given anything at all (an untouched form is not a draft). */
export function hasAnyAnswer(answers: readonly PromptAnswer[]): boolean {
  return answers.some((answer) => answer.selected.length > 0 || answer.custom.trim() !== '');
}

export type PromptCheck =
  | { ok: true; answers: PromptAnswer[] }
  | { ok: false; errors: (string | null)[] };

/** Every question answered (an option or words of one's own), within the length an answer may have. */
export function checkPromptAnswers(
  prompts: readonly QuestionPrompt[],
  answers: readonly PromptAnswer[],
): PromptCheck {
  const trimmed = prompts.map((_, index) => {
    const answer = answers[index] ?? { selected: [], custom: '' };
    return { selected: [...answer.selected], custom: answer.custom.trim() };
  });
  const errors = prompts.map((prompt, index) => {
    const answer = trimmed[index] as PromptAnswer;
    if (answer.selected.length === 0 && answer.custom === '') {
      return prompt.options.length > 0
        ? 'Choose an answer, or write your own.'
        : 'Answer this question too: every question needs an answer.';
    }
    if (answer.custom.length > MAX_ANSWER_LENGTH) {
      return `Answers are limited to ${MAX_ANSWER_LENGTH.toLocaleString('en')} characters; this one has ${answer.custom.length.toLocaleString('en')}.`;
    }
    return null;
  });
  return errors.every((error) => error === null)
    ? { ok: true, answers: trimmed }
    : { ok: false, errors };
}

export const NOT_APPLICABLE_SUMMARY = 'Not applicable';

/**
 * One line saying what was answered: "Header: choice, choice" per question, joined with "; "
 * ("Postgres: Postgres 17"). A question without a header is named by its text. Never empty. It is
 * Bilby's `summary`, and what the portal shows of an answer given this way until the server's own
 * record arrives.
 */
export function summarizeAnswers(
  prompts: readonly QuestionPrompt[],
  answers: readonly { selected: readonly string[]; custom?: string }[],
): string {
  const parts = prompts.flatMap((prompt, index) => {
    const answer = answers[index];
    const given = [
      ...(answer?.selected ?? []),
      ...(answer?.custom?.trim() ? [answer.custom.trim()] : []),
    ];
    if (given.length === 0) return [];
    return [`${prompt.header?.trim() || prompt.text.trim()}: ${given.join(', ')}`];
  });
  return parts.length > 0 ? parts.join('; ') : NOT_APPLICABLE_SUMMARY;
}
