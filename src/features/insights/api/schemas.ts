import * as z from 'zod/mini';
import { lazySchema } from '@/lib/lazy-schema';

// The portal server's `portal-api/insights` (server/insights/core.ts Insights): lenient where it
// may grow, as the other portal-api readers are.
const figures = () => ({
  asked: z.number(),
  responded: z.number(),
  missed: z.number(),
  closedOtherwise: z.number(),
  waiting: z.number(),
  medianWaitSeconds: z.nullable(z.number()),
  p90WaitSeconds: z.nullable(z.number()),
});
const count = () => z.looseObject({ key: z.string(), questions: z.number() });
const ranked = () => z.looseObject({ top: z.array(count()), others: z.number() });

export const insightsSchema = lazySchema(() =>
  z.looseObject({
    buckets: z.array(z.looseObject({ label: z.string(), ...figures() })),
    total: z.looseObject(figures()),
    missed: z.array(
      z.looseObject({
        sourceId: z.string(),
        kind: z.string(),
        questionId: z.string(),
        asked: z.string(),
        agent: z.nullable(z.string()),
        firstSeen: z.string(),
        closedSeen: z.string(),
        expiresAt: z.nullable(z.string()),
      }),
    ),
    bySystem: z.array(count()),
    byAgent: ranked(),
    byTag: ranked(),
    reviewers: z.nullable(
      z.looseObject({
        top: z.array(
          z.looseObject({
            reviewer: z.string(),
            reviewerName: z.nullable(z.string()),
            total: z.number(),
            byAction: z.record(z.string(), z.number()),
          }),
        ),
        others: z.number(),
      }),
    ),
    now: z.looseObject({
      at: z.string(),
      bySystem: z.array(
        z.looseObject({
          sourceId: z.string(),
          pending: z.number(),
          expiringUnclaimed: z.number(),
        }),
      ),
      oldest: z.nullable(
        z.looseObject({
          sourceId: z.string(),
          kind: z.string(),
          questionId: z.string(),
          asked: z.string(),
          firstSeen: z.string(),
        }),
      ),
    }),
    filter: z.looseObject({ bucket: z.enum(['hour', 'day']) }),
    perReviewer: z.boolean(),
  }),
);
export type Insights = z.infer<ReturnType<typeof insightsSchema>>;
export type InsightsBucket = Insights['buckets'][number];
export type MissedQuestion = Insights['missed'][number];

/** What the server is asked: the range as ISO times, and the filters. */
export interface InsightsQuery {
  from: string;
  to: string;
  tz: string;
  source?: string;
  tag?: string;
  agent?: string;
}

/** The CSV figures the server offers (server/insights/core.ts CSV_FIGURES). */
export type CsvFigure = 'days' | 'missed' | 'systems' | 'agents' | 'tags' | 'reviewers' | 'pending';
