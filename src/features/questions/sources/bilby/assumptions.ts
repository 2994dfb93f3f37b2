import * as z from 'zod/mini';
import { kindForStatus } from '@/lib/api-client';
import type { ErrorReader } from '../http';
import { isoTimestamp } from '../iso-timestamp';

/**
 * WHAT THE PORTAL ASSUMES OF BILBY, in one place (issue 13, ../shared/api-docs/other-sources.md).
 *
 * Bilby documents only `POST /api/v1/conversations/{id}/tool-outputs` (003_ac7afb055ad84874.txt):
 * its body `{outputs: [{toolCallId, output: {status: "answered" | "dismissed", answers: [{question,
 * selected, custom?}], summary}}], locale?, reasoningEffort?}`, 202 on success (`{ok,
 * conversationId, status: "accepted", runId, streamUrl}`), 404 for an unknown or already-answered
 * call, 409 while a turn is in flight, `Authorization: Bearer <personal key>`, and an
 * `organizationId` query parameter (a UUID) for keys that cover several organizations.
 *
 * It does not document how to discover conversations or the shape of `pendingQuestions`. Until it
 * does, the portal assumes exactly this, and the mock (mock/bilby/) follows it:
 *
 * 1. Discovery: `GET {bilby}/conversations?organizationId=…&cursor=…` →
 *    `{"conversations": [{"id", "title", "updatedAt", "pendingQuestionCount"}], "nextCursor":
 *    string | null}`. Follow `nextCursor` until it is null, at most {@link MAX_PAGES} pages; read
 *    only conversations with `pendingQuestionCount > 0`.
 * 2. Detail: `GET {bilby}/conversations/{id}` → `{"id", "title", "status": "idle" | "running",
 *    "updatedAt", "pendingQuestions": [{"toolCallId", "createdAt", "questions": [{"question",
 *    "header", "options": [{"label", "description"}], "multiSelect"}]}]}`. Timestamps are ISO
 *    strings. There is no expiry. 1 to 4 questions per call, 2 to 4 options per question (the
 *    common "ask user question" tool); a free "other" text is always allowed (`custom`).
 * 3. Answer: the documented tool-outputs call, one output per call. `summary` is never empty: it
 *    is built from the answers ("Postgres: Postgres 17"). `selected` holds option labels only;
 *    free text goes in `custom`. 409 (`status: "running"`) lasts a few seconds after an answer.
 * 4. Errors: a JSON body with an `error` string, and `message` too if present.
 * 5. `organizationId`, when configured, goes on every request as a query parameter.
 * 6. One pending tool call (1–4 questions) is one question in the inbox; its text is its questions.
 */

export const MAX_PAGES = 50;

export const conversationSummarySchema = z.looseObject({
  id: z.string().check(z.minLength(1)),
  title: z.nullish(z.string()),
  updatedAt: isoTimestamp(),
  pendingQuestionCount: z.nullish(z.number()),
});

export const conversationPageSchema = z.looseObject({
  conversations: z.array(z.unknown()),
  nextCursor: z.nullish(z.string()),
});

export const bilbyQuestionSchema = z.looseObject({
  question: z.string().check(z.minLength(1)),
  header: z.nullish(z.string()),
  options: z.nullish(
    z.array(z.looseObject({ label: z.string(), description: z.nullish(z.string()) })),
  ),
  multiSelect: z.nullish(z.boolean()),
});

export const pendingCallSchema = z.looseObject({
  toolCallId: z.string().check(z.minLength(1)),
  createdAt: isoTimestamp(),
  questions: z.array(bilbyQuestionSchema).check(z.minLength(1)),
});
export type PendingCall = z.infer<typeof pendingCallSchema>;

export const conversationDetailSchema = z.looseObject({
  id: z.string().check(z.minLength(1)),
  title: z.nullish(z.string()),
  // Lenient: any status other than "running" lets answers through.
  status: z.nullish(z.string()),
  updatedAt: isoTimestamp(),
  pendingQuestions: z.array(z.unknown()),
});
export type ConversationDetail = z.infer<typeof conversationDetailSchema>;

// What the portal sends: strict (the documented body, nothing more).
export const toolOutputSchema = z.strictObject({
  status: z.enum(['answered', 'dismissed']),
  answers: z.array(
    z.strictObject({
      question: z.string(),
      selected: z.array(z.string()),
      custom: z.optional(z.string()),
    }),
  ),
  summary: z.string().check(z.trim(), z.minLength(1)),
});
export type ToolOutput = z.infer<typeof toolOutputSchema>;

export const toolOutputsBodySchema = z.strictObject({
  outputs: z
    .array(
      z.strictObject({ toolCallId: z.string().check(z.minLength(1)), output: toolOutputSchema }),
    )
    .check(z.minLength(1)),
});

export const acceptedSchema = z.looseObject({
  ok: z.nullish(z.boolean()),
  status: z.nullish(z.string()),
  runId: z.nullish(z.string()),
});

export const errorBodySchema = z.looseObject({
  error: z.string(),
  message: z.nullish(z.string()),
});

/** `{error, message?}` → the app's error kinds; 409 is the agent still working ("busy"). */
export const readBilbyError: ErrorReader = (status, body) => {
  const parsed = errorBodySchema.safeParse(body);
  if (!parsed.success) return null;
  const { error, message } = parsed.data;
  return {
    kind: kindForStatus(status, true),
    detail: message ? `${error}: ${message}` : error,
    code: status === 409 ? 'busy' : null,
  };
};
