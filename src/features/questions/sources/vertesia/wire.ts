import * as z from 'zod/mini';
import { kindForStatus } from '@/lib/api-client';
import type { ErrorReader } from '../http';

/**
 * Vertesia's Pending Asks wire format (../shared/api-docs/004_c6f74b07820db5b9.txt, API version
 * 20260803). What it sends is read leniently (unknown keys pass, optional fields may be null);
 * what the portal sends is strict, since that version refuses unknown properties with a 400.
 */
export const VERTESIA_API_VERSION = '20260803';

export const askStatusSchema = z.enum(['pending', 'resolved', 'expired']);

const userChannelSchema = z.looseObject({
  type: z.string(),
  to_email: z.nullish(z.string()),
});

export const pendingAskSchema = z.looseObject({
  askId: z.string().check(z.minLength(1)),
  runId: z.nullish(z.string()),
  workflowId: z.nullish(z.string()),
  projectId: z.nullish(z.string()),
  accountId: z.nullish(z.string()),
  agentName: z.nullish(z.string()),
  questions: z.array(z.string()),
  timeoutHours: z.nullish(z.number()),
  userChannels: z.nullish(z.array(userChannelSchema)),
  createdAt: z.nullish(z.number()),
  expiresAt: z.nullish(z.number()),
  status: askStatusSchema,
  taskId: z.nullish(z.string()),
  resolvedAt: z.nullish(z.number()),
  response: z.nullish(z.string()),
});
export type PendingAsk = z.infer<typeof pendingAskSchema>;

export const askListSchema = z.looseObject({ asks: z.array(z.unknown()) });

export const resolveResponseSchema = z.looseObject({
  success: z.boolean(),
  webhookSent: z.nullish(z.boolean()),
  waitDurationMs: z.nullish(z.number()),
  error: z.nullish(z.string()),
});

export const resolveBodySchema = z.strictObject({ response: z.string() });

export const errorResponseSchema = z.looseObject({
  error: z.string(),
  status: z.nullish(z.number()),
  message: z.nullish(z.string()),
  details: z.nullish(z.string()),
  errorCode: z.nullish(z.string()),
});

/** `{error, status, message, details?, errorCode?}` → the app's error kinds. */
export const readVertesiaError: ErrorReader = (status, body) => {
  const parsed = errorResponseSchema.safeParse(body);
  if (!parsed.success) return null;
  const { error, message, details, errorCode } = parsed.data;
  const words = message || error;
  return {
    kind: kindForStatus(status, true),
    detail: details ? `${words} (${details})` : words,
    code: errorCode ?? null,
  };
};
