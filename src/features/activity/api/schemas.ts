import * as z from 'zod/mini';
import { lazySchema } from '@/lib/lazy-schema';

/** One entry of the portal server's audit trail (server/audit/queries.ts AuditEntry). */
export const activityEntrySchema = lazySchema(() =>
  z.looseObject({
    id: z.number(),
    at: z.string(),
    requestId: z.string(),
    reviewer: z.string(),
    reviewerName: z.nullable(z.string()),
    /** Named in the browser, not by an SSO proxy; absent or null where the trail has no word. */
    selfNamed: z.nullish(z.boolean()),
    sourceId: z.string(),
    sourceKind: z.string(),
    questionId: z.string(),
    /** What the question asked, from the server's watcher; null where it never saw it. */
    asked: z.nullish(z.string()),
    action: z.string(),
    answer: z.nullable(z.string()),
    answerMode: z.string(),
    status: z.nullable(z.number()),
    detail: z.nullable(z.string()),
  }),
);
export type ActivityEntry = z.infer<ReturnType<typeof activityEntrySchema>>;

export const activityPageSchema = lazySchema(() =>
  z.looseObject({
    entries: z.array(activityEntrySchema()),
    nextCursor: z.nullable(z.number()),
  }),
);
export type ActivityPage = z.infer<ReturnType<typeof activityPageSchema>>;

export const meSchema = lazySchema(() =>
  z.looseObject({
    reviewer: z.looseObject({
      id: z.string(),
      name: z.nullable(z.string()),
      from: z.enum(['sso', 'browser']),
    }),
    identity: z.enum(['sso', 'browser']),
  }),
);
export type Me = z.infer<ReturnType<typeof meSchema>>;

export const activityActions = [
  'answer',
  'edit',
  'not-applicable',
  'cancel',
  'resolve-json',
  'claim',
  'release',
  'snippet-create',
  'snippet-edit',
  'snippet-delete',
] as const;

/** The Activity page's filters, as they stand in its URL. */
export interface ActivityFilter {
  reviewer?: string;
  source?: string;
  action?: string;
  from?: string;
  to?: string;
  q?: string;
  question?: string[];
}
