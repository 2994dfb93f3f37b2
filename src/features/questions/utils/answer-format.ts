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

/** An answer as a choice is compared: case, spaces, quotes and a final full stop aside. */
function asChoice(text: string): string {
  return text
    .trim()
    .replace(/^["'“”]+|["'“”.]+$/g, '')
    .replace(/\s+/g, ' ')
    .toLocaleLowerCase();
}

/**
 * Whether `answer` is one of the choices its format offers, alone or first with its reasons
 * after it ("yes" and "Yes, but only for March" for "yes/no"; "yes" is none of "now, after
 * cut-off"). Free-text formats take anything.
 */
export function fitsChoices(answer: string, choices: readonly string[]): boolean {
  if (choices.length === 0) return true;
  const given = asChoice(answer);
  return choices.some((choice) => {
    const wanted = asChoice(choice);
    return (
      given === wanted ||
      (given.startsWith(wanted) && /^[\s,;:.(—–-]/.test(given.slice(wanted.length)))
    );
  });
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
    return { ok: false, message: describeJsonError(raw, error) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      ok: false,
      message: 'The result must be a JSON object (in braces), for example {"approved": true}.',
    };
  }
  return { ok: true, result: value as Record<string, unknown> };
}

/** Where a JSON text goes wrong, as a person counts: line and column, from 1. */
function lineAndColumn(text: string, position: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(position, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}

// What the browser's JSON parser says, in plain words (engines word it differently; the ones
// not known here are passed on as they are, without their "at position N").
const JSON_REASONS: [RegExp, string][] = [
  [
    /end of (json )?input|unterminated/i,
    'it ends too early: a bracket, brace or quote is not closed',
  ],
  [/property name/i, 'a property name must be in double quotes, like "approved"'],
  [
    /',' or '\}'|',' or ']'|after (property|array element)/i,
    'a comma or a closing bracket is missing',
  ],
  [
    /bad control character|control character/i,
    'a line break or tab inside a string (write \\n instead)',
  ],
  [/unexpected non-whitespace|after json/i, 'there is more after the end of the object'],
  [/unexpected token '?(.)'?|unexpected character/i, 'this character is not allowed here'],
];

/**
 * "This is not valid JSON: line 3, column 5: a comma or a closing bracket is missing." From a
 * JSON.parse error: its position (V8, Firefox and Safari all give one, in their own words).
 */
export function describeJsonError(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const at = /position (\d+)/.exec(message);
  const lineCol = /line (\d+) column (\d+)/i.exec(message);
  const where = lineCol
    ? { line: Number(lineCol[1]), column: Number(lineCol[2]) }
    : lineAndColumn(text, at ? Number(at[1]) : text.length);
  const known = JSON_REASONS.find(([pattern]) => pattern.test(message));
  const reason = known
    ? known[1]
    : message.replace(/\s*(in JSON )?at position \d+.*$/i, '').replace(/^JSON\.parse: /, '');
  return `This is not valid JSON: line ${where.line}, column ${where.column}: ${reason}.`;
}

/** Templates longer than this start from an empty object instead: the box must stay usable. */
const TEMPLATE_MAX = 4_000;

function prettyJson(value: unknown): string | null {
  try {
    const text = JSON.stringify(value, null, 2);
    return text && text.length <= TEMPLATE_MAX ? text : null;
  } catch {
    return null;
  }
}

/**
 * Where another tool's result starts: the answer format when it is a JSON object itself, else an
 * empty box. Not the call's arguments: a reviewer who only clicks through would send them back as
 * the result (they are offered beside the box instead, see jsonArgumentsStart).
 */
export function jsonResultTemplate(answerFormat: string | null): string {
  if (answerFormat) {
    try {
      const format: unknown = JSON.parse(answerFormat);
      if (typeof format === 'object' && format !== null && !Array.isArray(format)) {
        const text = prettyJson(format);
        if (text) return text;
      }
    } catch {
      // A format in words: no template.
    }
  }
  return '';
}

/** The call's arguments as a start for its result, on the reviewer's request; null if none fit. */
export function jsonArgumentsStart(args: Record<string, unknown> | null): string | null {
  if (!args || Object.keys(args).length === 0) return null;
  return prettyJson(args);
}
