import * as z from 'zod/mini';

export const questionStatuses = [
  'pending',
  'resolved',
  'expired',
  'superseded',
  'cancelled',
] as const;
export const questionStatusSchema = z.enum(questionStatuses);
export type QuestionStatus = z.infer<typeof questionStatusSchema>;

export const ASK_HUMAN = 'ask_human';
export const NOT_APPLICABLE_ANSWER = 'User does not have information about this question.';

const isoTimestamp = z.pipe(
  z.nullish(z.string()),
  z.transform((value, ctx) => {
    if (value == null) return null;
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) {
      ctx.issues.push({
        code: 'custom',
        message: `not a date: ${value.slice(0, 40)}`,
        input: value,
      });
      return z.NEVER;
    }
    return ms;
  }),
);

const jsonObject = z.record(z.string(), z.unknown());

/**
 * Reflexio's `PendingToolCallResponse`. Lenient where the API is: every field but `id` may be
 * missing or null, and unknown keys pass through.
 */
export const pendingToolCallSchema = z.looseObject({
  id: z.string().check(z.minLength(1)),
  org_id: z.nullish(z.string()),
  scope: z.nullish(jsonObject),
  scope_hash: z.nullish(z.string()),
  tool_name: z.nullish(z.string()),
  dedup_key: z.nullish(z.string()),
  status: z.nullish(questionStatusSchema),
  question_text: z.nullish(z.string()),
  user_id: z.nullish(z.string()),
  args: z.nullish(jsonObject),
  tags: z.nullish(z.array(z.string())),
  answer_format: z.nullish(z.string()),
  result: z.nullish(jsonObject),
  superseded_by: z.nullish(z.string()),
  created_at: isoTimestamp,
  resolved_at: isoTimestamp,
  expires_at: isoTimestamp,
  cache_until: isoTimestamp,
  valid_until: isoTimestamp,
});
export type PendingToolCall = z.infer<typeof pendingToolCallSchema>;

export const pendingToolCallListSchema = z.looseObject({
  pending_tool_calls: z.nullish(z.array(z.unknown())),
});

/** Which configured system a question came from (config.json `sources[]`). */
export interface QuestionOrigin {
  id: string;
  kind: 'reflexio' | 'vertesia' | 'bilby';
  label: string;
}

export const REFLEXIO_ORIGIN: QuestionOrigin = {
  id: 'reflexio',
  kind: 'reflexio',
  label: 'Reflexio',
};

/** One choice a question offers (Bilby's `options`). */
export interface PromptOption {
  label: string;
  description: string | null;
}

/**
 * One question inside a question record that holds several (a Vertesia ask, a Bilby tool call);
 * each gets its own answer field.
 */
export interface QuestionPrompt {
  text: string;
  /** Short title (Bilby's `header`); null where the source has none. */
  header: string | null;
  /** Empty: free text only. */
  options: PromptOption[];
  multiSelect: boolean;
}

/** What the reviewer gave for one prompt: option labels and/or free text. */
export interface PromptAnswer {
  selected: string[];
  custom: string;
}

/** The portal's own record: what every question source maps its data to. */
export interface Question {
  id: string;
  source: QuestionOrigin;
  status: QuestionStatus;
  toolName: string;
  questionText: string;
  userId: string | null;
  tags: string[];
  answerFormat: string | null;
  args: Record<string, unknown> | null;
  scope: Record<string, unknown> | null;
  /** Reflexio's `scope_hash` and `dedup_key`: with the tool, what makes two calls the same question. */
  scopeHash: string | null;
  dedupKey: string | null;
  /** Who asked where the source has no scope: Vertesia's agent name, Bilby's conversation id. */
  asker: string | null;
  result: Record<string, unknown> | null;
  supersededBy: string | null;
  createdAt: number | null;
  resolvedAt: number | null;
  expiresAt: number | null;
  validUntil: number | null;
  /**
   * The questions it holds, each answered on its own (Vertesia, Bilby); absent for a record that
   * is one question with one answer (Reflexio).
   */
  prompts?: readonly QuestionPrompt[];
  /** The agent is working right now and may refuse answers for a moment (Bilby `running`). */
  busy?: boolean;
}

export function toQuestion(call: PendingToolCall, source = REFLEXIO_ORIGIN): Question {
  const args = call.args ?? null;
  const argQuestion = typeof args?.question === 'string' ? args.question : '';
  return {
    id: call.id,
    source,
    // A record without a status is shown as pending only if nothing says otherwise.
    status: call.status ?? (call.resolved_at != null ? 'resolved' : 'pending'),
    toolName: call.tool_name ?? ASK_HUMAN,
    questionText: call.question_text ?? argQuestion,
    userId: call.user_id ?? null,
    tags: call.tags ?? [],
    answerFormat: call.answer_format ?? null,
    args,
    scope: call.scope ?? null,
    scopeHash: call.scope_hash ?? null,
    dedupKey: call.dedup_key ?? null,
    asker: null,
    result: call.result ?? null,
    supersededBy: call.superseded_by ?? null,
    createdAt: call.created_at,
    resolvedAt: call.resolved_at,
    expiresAt: call.expires_at,
    validUntil: call.valid_until,
  };
}

/** A record the server sent that the portal could not read; shown flagged, never dropped silently. */
export interface UnreadableRecord {
  index: number;
  id: string | null;
  problems: string[];
}

export interface QuestionList {
  questions: Question[];
  unreadable: UnreadableRecord[];
  /** The server returned as many rows as asked for: there may be more. */
  truncated: boolean;
  /** Sources that could not be read this time, in plain words; the others' questions are here. */
  failures?: SourceFailure[];
}

export interface SourceFailure {
  source: QuestionOrigin;
  /** "Vertesia is unavailable (HTTP 503)". */
  message: string;
  /** Its questions in the list are those of its last good refresh. */
  stale: boolean;
  /** It refused the reviewer's sign-in (HTTP 401/403): the others are still signed in. */
  signedOut?: boolean;
}

export function parseQuestionList(
  items: unknown[],
  limit: number,
  source = REFLEXIO_ORIGIN,
): QuestionList {
  const questions: Question[] = [];
  const unreadable: UnreadableRecord[] = [];
  items.forEach((item, index) => {
    const parsed = pendingToolCallSchema.safeParse(item);
    if (parsed.success) {
      questions.push(toQuestion(parsed.data, source));
      return;
    }
    const rawId = typeof item === 'object' && item !== null ? (item as { id?: unknown }).id : null;
    unreadable.push({
      index,
      id: typeof rawId === 'string' ? rawId : null,
      problems: parsed.error.issues.map(
        (issue) => `${issue.path.join('.') || 'record'}: ${issue.message}`,
      ),
    });
  });
  return { questions, unreadable, truncated: items.length >= limit };
}

// What the portal sends: strict.
export const validForSecondsSchema = z.int().check(z.positive());

export const resolveBodySchema = z.strictObject({
  result: jsonObject,
  valid_for_seconds: z.optional(validForSecondsSchema),
});
export const answerBodySchema = z.strictObject({
  answer: z.string().check(z.trim(), z.minLength(1)),
  valid_for_seconds: z.optional(validForSecondsSchema),
});
export const notApplicableBodySchema = z.strictObject({
  valid_for_seconds: z.optional(validForSecondsSchema),
});
