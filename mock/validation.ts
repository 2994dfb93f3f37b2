import { CALL_STATUSES, type CallStatus, type JsonObject } from './store';

/** One entry of FastAPI's list-shaped 422 `detail` (pydantic v2, without `url`). */
export interface ValidationIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx?: JsonObject;
}

export type Validated<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

const NO_BODY = Symbol('no body');
export type RawBody = unknown | typeof NO_BODY;

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

// Python's json messages, which FastAPI puts in ctx.error, mapped from V8's.
const JSON_MESSAGES: [RegExp, string][] = [
  [/Expected ',' or/, "Expecting ',' delimiter"],
  [/Expected ':' after property name/, "Expecting ':' delimiter"],
  [/property name/, 'Expecting property name enclosed in double quotes'],
  [/non-whitespace/, 'Extra data'],
  [/Unterminated string/, 'Unterminated string starting at'],
];

function pythonJsonError(message: string, text: string): { pos: number; error: string } {
  const position = /position (\d+)/.exec(message)?.[1];
  const error = JSON_MESSAGES.find(([pattern]) => pattern.test(message))?.[1] ?? 'Expecting value';
  if (position !== undefined) return { pos: Number(position), error };
  if (/end of JSON input/.test(message)) return { pos: text.length, error };
  return { pos: 0, error };
}

/** Decodes a request body the way FastAPI does before validating it against the model. */
export function decodeBody(text: string, contentType: string | null): Validated<RawBody> {
  if (text.length === 0) return { ok: true, value: NO_BODY };
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  const isJson =
    mediaType === '' || mediaType === 'application/json' || mediaType.endsWith('+json');
  if (!isJson) return { ok: true, value: text };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const { pos, error: message } = pythonJsonError(
      error instanceof Error ? error.message : '',
      text,
    );
    return {
      ok: false,
      issues: [
        {
          type: 'json_invalid',
          loc: ['body', pos],
          msg: 'JSON decode error',
          input: {},
          ctx: { error: message },
        },
      ],
    };
  }
}

type FieldCheck = (value: unknown, loc: (string | number)[]) => ValidationIssue | null;

interface FieldSpec {
  name: string;
  required: boolean;
  check: FieldCheck;
}

const dictField: FieldCheck = (value, loc) =>
  isObject(value)
    ? null
    : { type: 'dict_type', loc, msg: 'Input should be a valid dictionary', input: value };

const stringField: FieldCheck = (value, loc) =>
  typeof value === 'string'
    ? null
    : { type: 'string_type', loc, msg: 'Input should be a valid string', input: value };

/** pydantic v2 lax int from JSON: ints, integral floats, bools and numeric strings pass. */
function laxInt(value: unknown, loc: (string | number)[]): Validated<number> {
  if (typeof value === 'boolean') return { ok: true, value: value ? 1 : 0 };
  if (typeof value === 'number') {
    if (Number.isInteger(value)) return { ok: true, value };
    return {
      ok: false,
      issues: [
        {
          type: 'int_from_float',
          loc,
          msg: 'Input should be a valid integer, got a number with a fractional part',
          input: value,
        },
      ],
    };
  }
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (/^[+-]?\d+$/.test(trimmed)) return { ok: true, value: Number(trimmed) };
    return {
      ok: false,
      issues: [
        {
          type: 'int_parsing',
          loc,
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: value,
        },
      ],
    };
  }
  return {
    ok: false,
    issues: [{ type: 'int_type', loc, msg: 'Input should be a valid integer', input: value }],
  };
}

const positiveOptionalInt: FieldCheck = (value, loc) => {
  if (value === null) return null;
  const parsed = laxInt(value, loc);
  if (!parsed.ok) return parsed.issues[0] ?? null;
  if (parsed.value > 0) return null;
  return {
    type: 'greater_than',
    loc,
    msg: 'Input should be greater than 0',
    input: value,
    ctx: { gt: 0 },
  };
};

function validateModel(raw: RawBody, fields: FieldSpec[]): Validated<JsonObject> {
  if (raw === NO_BODY || raw === null) {
    return {
      ok: false,
      issues: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }],
    };
  }
  if (!isObject(raw)) {
    return {
      ok: false,
      issues: [
        {
          type: 'model_attributes_type',
          loc: ['body'],
          msg: 'Input should be a valid dictionary or object to extract fields from',
          input: raw,
        },
      ],
    };
  }
  const issues: ValidationIssue[] = [];
  for (const field of fields) {
    const loc = ['body', field.name];
    if (!Object.hasOwn(raw, field.name)) {
      if (field.required) issues.push({ type: 'missing', loc, msg: 'Field required', input: raw });
      continue;
    }
    const issue = field.check(raw[field.name], loc);
    if (issue) issues.push(issue);
  }
  const known = new Set(fields.map((field) => field.name));
  for (const [key, value] of Object.entries(raw)) {
    if (!known.has(key)) {
      issues.push({
        type: 'extra_forbidden',
        loc: ['body', key],
        msg: 'Extra inputs are not permitted',
        input: value,
      });
    }
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: raw };
}

function optionalPositiveInt(value: unknown): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return typeof value === 'string' ? Number(value.trim()) : (value as number);
}

const validForField: FieldSpec = {
  name: 'valid_for_seconds',
  required: false,
  check: positiveOptionalInt,
};

export function validateResolveBody(
  raw: RawBody,
): Validated<{ result: JsonObject; validForSeconds?: number }> {
  const checked = validateModel(raw, [
    { name: 'result', required: true, check: dictField },
    validForField,
  ]);
  if (!checked.ok) return checked;
  const validForSeconds = optionalPositiveInt(checked.value.valid_for_seconds);
  return {
    ok: true,
    value: {
      result: checked.value.result as JsonObject,
      ...(validForSeconds === undefined ? {} : { validForSeconds }),
    },
  };
}

export function validateAnswerBody(
  raw: RawBody,
): Validated<{ answer: string; validForSeconds?: number }> {
  const checked = validateModel(raw, [
    { name: 'answer', required: true, check: stringField },
    validForField,
  ]);
  if (!checked.ok) return checked;
  const validForSeconds = optionalPositiveInt(checked.value.valid_for_seconds);
  return {
    ok: true,
    value: {
      answer: checked.value.answer as string,
      ...(validForSeconds === undefined ? {} : { validForSeconds }),
    },
  };
}

export function validateNotApplicableBody(raw: RawBody): Validated<{ validForSeconds?: number }> {
  const checked = validateModel(raw, [validForField]);
  if (!checked.ok) return checked;
  const validForSeconds = optionalPositiveInt(checked.value.valid_for_seconds);
  return { ok: true, value: validForSeconds === undefined ? {} : { validForSeconds } };
}

const STATUS_CHOICES = "'pending', 'resolved', 'expired', 'superseded' or 'cancelled'";

/** Query params as FastAPI reads them: the last value of a repeated key wins. */
export function validateListQuery(url: URL): Validated<{ status?: CallStatus; limit: number }> {
  const issues: ValidationIssue[] = [];
  const statusValues = url.searchParams.getAll('status');
  const limitValues = url.searchParams.getAll('limit');
  const rawStatus = statusValues.at(-1);
  const rawLimit = limitValues.at(-1);

  let status: CallStatus | undefined;
  if (rawStatus !== undefined) {
    if ((CALL_STATUSES as readonly string[]).includes(rawStatus)) {
      status = rawStatus as CallStatus;
    } else {
      issues.push({
        type: 'enum',
        loc: ['query', 'status'],
        msg: `Input should be ${STATUS_CHOICES}`,
        input: rawStatus,
        ctx: { expected: STATUS_CHOICES },
      });
    }
  }

  let limit = 100;
  if (rawLimit !== undefined) {
    const loc = ['query', 'limit'];
    const parsed = laxInt(rawLimit, loc);
    if (!parsed.ok) {
      issues.push(...parsed.issues);
    } else if (parsed.value < 1) {
      issues.push({
        type: 'greater_than_equal',
        loc,
        msg: 'Input should be greater than or equal to 1',
        input: rawLimit,
        ctx: { ge: 1 },
      });
    } else if (parsed.value > 500) {
      issues.push({
        type: 'less_than_equal',
        loc,
        msg: 'Input should be less than or equal to 500',
        input: rawLimit,
        ctx: { le: 500 },
      });
    } else {
      limit = parsed.value;
    }
  }

  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, value: status === undefined ? { limit } : { status, limit } };
}
