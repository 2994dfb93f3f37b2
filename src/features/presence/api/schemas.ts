import * as z from 'zod/mini';
import { lazySchema } from '@/lib/lazy-schema';

/** One reviewer with a question open (server/team/sql.ts Viewer). */
export const viewerSchema = lazySchema(() =>
  z.looseObject({
    sourceId: z.string(),
    questionId: z.string(),
    reviewer: z.string(),
    reviewerName: z.nullable(z.string()),
    typing: z.boolean(),
  }),
);
export type Viewer = z.infer<ReturnType<typeof viewerSchema>>;

/** Who holds a question, until when (server/team/queries.ts Claim). */
export const claimSchema = lazySchema(() =>
  z.looseObject({
    sourceId: z.string(),
    questionId: z.string(),
    reviewer: z.string(),
    reviewerName: z.nullable(z.string()),
    claimedAt: z.string(),
    expiresAt: z.string(),
  }),
);
export type Claim = z.infer<ReturnType<typeof claimSchema>>;

/** What the server pushes on its event stream, whole each time. */
export const teamStateSchema = lazySchema(() =>
  z.looseObject({
    viewers: z.array(viewerSchema()).check(z.maxLength(10_000)),
    claims: z.array(claimSchema()).check(z.maxLength(100_000)),
    acted: z.optional(
      z
        .array(
          z.looseObject({
            sourceId: z.string(),
            questionId: z.string(),
            reviewer: z.string(),
            at: z.string(),
          }),
        )
        .check(z.maxLength(100)),
    ),
    serverTime: z.string(),
    /** Where the server watches the systems: which, how often, and its copy's versions. */
    watch: z.optional(
      z.looseObject({
        intervalSeconds: z.number(),
        sources: z.array(z.string()).check(z.maxLength(100)),
        versions: z.record(z.string(), z.number()),
      }),
    ),
  }),
);
export type TeamState = z.infer<ReturnType<typeof teamStateSchema>>;

export const meSchema = lazySchema(() =>
  z.looseObject({
    reviewer: z.looseObject({ id: z.string(), name: z.nullable(z.string()) }),
  }),
);

export const claimAnswerSchema = lazySchema(() =>
  z.looseObject({
    claimed: z.array(claimSchema()),
    refused: z.array(z.looseObject({ questionId: z.string(), detail: z.string() })),
  }),
);
export type ClaimAnswer = z.infer<ReturnType<typeof claimAnswerSchema>>;

/** The question a part is about, as the questions feature hands it over. */
export interface TeamSubject {
  id: string;
  status: string;
  source: { id: string; kind: string };
}

/** How the live stream stands: `absent` where there is no portal server. */
export type Connection = 'connecting' | 'live' | 'reconnecting' | 'absent';
