import * as z from 'zod/mini';
import { questionStatuses } from '../api/schemas';
import { MAX_LIST_MESSAGE_CHARS, type TabMessage } from './tab-messages';

/** The longest "next poll in" a tab believes (the slowest poll is a minute). */
const MAX_NEXT_IN_MS = 10 * 60_000;

const nextInMs = z.number().check(z.minimum(0), z.maximum(MAX_NEXT_IN_MS));
const listKey = z
  .array(z.unknown())
  .check(z.refine((key) => key[0] === 'questions' && key[1] === 'list', 'not a list key'));
const origin = z.looseObject({
  id: z.string(),
  kind: z.enum(['reflexio', 'vertesia', 'bilby']),
  label: z.string(),
});
const json = z.nullable(z.record(z.string(), z.unknown()));
const time = z.nullable(z.number());
// What the portal's code reads from a question without checking: a list whose questions lack it
// would break the page that put it in its cache.
const question = z.looseObject({
  id: z.string(),
  source: origin,
  status: z.enum(questionStatuses),
  toolName: z.string(),
  questionText: z.string(),
  userId: z.nullable(z.string()),
  tags: z.array(z.string()),
  askerName: z.optional(z.nullable(z.string())),
  answerFormat: z.nullable(z.string()),
  args: json,
  scope: json,
  result: json,
  notApplicable: z.boolean(),
  createdAt: time,
  resolvedAt: time,
  expiresAt: time,
  validUntil: time,
  prompts: z.optional(
    z.array(
      z.looseObject({
        text: z.string(),
        header: z.nullable(z.string()),
        options: z.array(z.looseObject({ label: z.string(), description: z.nullable(z.string()) })),
        multiSelect: z.boolean(),
      }),
    ),
  ),
});
const questionList = z.looseObject({
  questions: z.array(question),
  unreadable: z.array(
    z.looseObject({ index: z.number(), id: z.nullable(z.string()), problems: z.array(z.string()) }),
  ),
  truncated: z.boolean(),
  failures: z.optional(
    z.array(z.looseObject({ source: origin, message: z.string(), stale: z.boolean() })),
  ),
});

const messageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('list'),
    key: listKey,
    data: questionList,
    updatedAt: z.number(),
    nextInMs,
  }),
  z.object({ type: z.literal('invalidate'), key: listKey, nextInMs }),
  z.object({ type: z.literal('beat'), nextInMs }),
  z.object({ type: z.literal('hello') }),
  z.object({ type: z.literal('refresh') }),
]);

/** The message `data` holds, or null when it is not text of one of the shapes above. */
export function decodeTabMessage(data: unknown): TabMessage | null {
  if (typeof data !== 'string' || data.length > MAX_LIST_MESSAGE_CHARS) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return null;
  }
  const checked = messageSchema.safeParse(parsed);
  return checked.success ? (checked.data as TabMessage) : null;
}
