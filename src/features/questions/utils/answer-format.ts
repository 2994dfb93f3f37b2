/** Ready-made answers a format hint implies: "yes/no" → Yes, No; "one of: a, b or c" → a, b, c. */
export function quickAnswers(format: string | null): string[] {
  if (!format) return [];
  const text = format.trim();
  if (/^(yes\s*\/\s*no|yes or no|boolean)$/i.test(text)) return ['Yes', 'No'];
  const oneOf = /^(?:one of|choose one of|pick one of|either)\s*:?\s*(.+)$/i.exec(text);
  if (!oneOf?.[1]) return [];
  const options = oneOf[1]
    .split(/\s*(?:,|\||\/|\bor\b)\s*/i)
    .map((option) => option.trim().replace(/^["'“”]+|["'“”.]+$/g, ''))
    .filter((option) => option.length > 0 && option.length <= 60);
  return options.length >= 2 && options.length <= 8 ? [...new Set(options)] : [];
}

/** Answers longer than this are refused before sending: well under any server or proxy body limit. */
export const MAX_ANSWER_LENGTH = 20_000;

export type ValidForResult =
  | { ok: true; seconds: number | undefined }
  | { ok: false; message: string };

export function parseValidFor(raw: string): ValidForResult {
  const text = raw.trim();
  if (text === '') return { ok: true, seconds: undefined };
  if (!/^\d+$/.test(text) || Number(text) <= 0 || !Number.isSafeInteger(Number(text))) {
    return {
      ok: false,
      message: 'Enter a whole number of seconds greater than 0, or leave it empty for the default.',
    };
  }
  return { ok: true, seconds: Number(text) };
}

export type AnswerCheck = { ok: true; answer: string } | { ok: false; message: string };

export function checkAnswer(raw: string): AnswerCheck {
  const answer = raw.trim();
  if (answer === '') return { ok: false, message: 'Write an answer first: it cannot be blank.' };
  if (answer.length > MAX_ANSWER_LENGTH) {
    return {
      ok: false,
      message: `Answers are limited to ${MAX_ANSWER_LENGTH.toLocaleString('en')} characters; this one has ${answer.length.toLocaleString('en')}.`,
    };
  }
  return { ok: true, answer };
}

export type JsonResultCheck =
  | { ok: true; result: Record<string, unknown> }
  | { ok: false; message: string };

export function checkJsonResult(raw: string): JsonResultCheck {
  if (raw.trim() === '')
    return {
      ok: false,
      message: 'Write the result as a JSON object, for example {"approved": true}.',
    };
  if (raw.length > MAX_ANSWER_LENGTH) {
    return {
      ok: false,
      message: `Results are limited to ${MAX_ANSWER_LENGTH.toLocaleString('en')} characters.`,
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { ok: false, message: `This is not valid JSON: ${(error as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      ok: false,
      message: 'The result must be a JSON object (in braces), for example {"approved": true}.',
    };
  }
  return { ok: true, result: value as Record<string, unknown> };
}
