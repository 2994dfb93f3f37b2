import * as z from 'zod/mini';
import { capDepth } from '@/lib/bounded-json';
import { createIntern, type Intern } from '@/lib/intern';
import { lazySchema } from '@/lib/lazy-schema';
import {
  ASK_HUMAN,
  type Question,
  type QuestionList,
  questionStatusSchema,
  REFLEXIO_ORIGIN,
  type UnreadableRecord,
} from '../../api/schemas';
import { isoTimestamp } from '../iso-timestamp';

// Reflexio's wire: what its pending tool calls API sends and takes, and how its records map to
// the portal's own Question. Nothing outside this folder sees these names.

const jsonObject = () => z.record(z.string(), z.unknown());

/**
 * Reflexio's `PendingToolCallResponse`. Lenient where the API is: every field but `id` may be
 * missing or null, and unknown keys pass through. Built at first use, like every schema the
 * first screen does not need (a page the server drew reads its lists from the page).
 */
export const pendingToolCallSchema = lazySchema(() =>
  z.looseObject({
    id: z.string().check(z.minLength(1)),
    org_id: z.nullish(z.string()),
    scope: z.nullish(jsonObject()),
    scope_hash: z.nullish(z.string()),
    tool_name: z.nullish(z.string()),
    dedup_key: z.nullish(z.string()),
    status: z.nullish(questionStatusSchema()),
    question_text: z.nullish(z.string()),
    user_id: z.nullish(z.string()),
    args: z.nullish(jsonObject()),
    tags: z.nullish(z.array(z.string())),
    answer_format: z.nullish(z.string()),
    result: z.nullish(jsonObject()),
    superseded_by: z.nullish(z.string()),
    created_at: isoTimestamp(),
    resolved_at: isoTimestamp(),
    expires_at: isoTimestamp(),
    cache_until: isoTimestamp(),
    valid_until: isoTimestamp(),
  }),
);
type PendingToolCall = z.infer<ReturnType<typeof pendingToolCallSchema>>;

export const pendingToolCallListSchema = lazySchema(() =>
  z.looseObject({ pending_tool_calls: z.nullish(z.array(z.unknown())) }),
);

const asIs: Intern = { text: (value) => value, json: (value) => value };

export function toQuestion(
  call: PendingToolCall,
  source = REFLEXIO_ORIGIN,
  intern: Intern = asIs,
): Question {
  // Agent-written JSON of any depth stays readable and never overflows a recursive walk.
  const args = capDepth(call.args ?? null);
  const argQuestion = typeof args?.question === 'string' ? args.question : '';
  // The text is usually the call's own `question` argument too: one string for both.
  const text = call.question_text ?? argQuestion;
  const nullable = (value: string | null | undefined) =>
    value === null || value === undefined ? null : intern.text(value);
  return {
    id: call.id,
    source,
    // A record without a status is shown as pending only if nothing says otherwise.
    status: call.status ?? (call.resolved_at != null ? 'resolved' : 'pending'),
    toolName: call.tool_name == null ? ASK_HUMAN : intern.text(call.tool_name),
    questionText: intern.text(text === argQuestion ? argQuestion : text),
    userId: nullable(call.user_id),
    tags: intern.json(call.tags ?? []),
    answerFormat: nullable(call.answer_format),
    args,
    scope: intern.json(capDepth(call.scope ?? null)),
    scopeHash: nullable(call.scope_hash),
    dedupKey: nullable(call.dedup_key),
    asker: null,
    result: capDepth(call.result ?? null),
    notApplicable: call.result?.not_applicable === true,
    supersededBy: call.superseded_by ?? null,
    createdAt: call.created_at,
    resolvedAt: call.resolved_at,
    expiresAt: call.expires_at,
    validUntil: call.valid_until,
  };
}

export function parseQuestionList(
  items: unknown[],
  limit: number,
  source = REFLEXIO_ORIGIN,
): QuestionList {
  const questions: Question[] = [];
  const unreadable: UnreadableRecord[] = [];
  const intern = createIntern();
  items.forEach((item, index) => {
    const parsed = pendingToolCallSchema().safeParse(item);
    if (parsed.success) {
      questions.push(toQuestion(parsed.data, source, intern));
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
const validForSeconds = () => z.optional(z.int().check(z.positive()));

export const resolveBodySchema = lazySchema(() =>
  z.strictObject({ result: jsonObject(), valid_for_seconds: validForSeconds() }),
);
export const answerBodySchema = lazySchema(() =>
  z.strictObject({
    answer: z.string().check(z.trim(), z.minLength(1)),
    valid_for_seconds: validForSeconds(),
  }),
);
export const notApplicableBodySchema = lazySchema(() =>
  z.strictObject({ valid_for_seconds: validForSeconds() }),
);
