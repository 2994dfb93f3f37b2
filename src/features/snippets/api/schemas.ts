import * as z from 'zod/mini';
import { lazySchema } from '@/lib/lazy-schema';

/** One of the team's saved answers (server/snippets/types.ts Snippet). */
export const snippetSchema = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    sourceId: z.string(),
    tag: z.nullable(z.string()),
    title: z.string(),
    body: z.string(),
    createdBy: z.string(),
    createdAt: z.string(),
    updatedBy: z.string(),
    updatedByName: z.nullish(z.string()),
    updatedAt: z.string(),
    version: z.number(),
  }),
);
export type Snippet = z.infer<ReturnType<typeof snippetSchema>>;

export const snippetListSchema = lazySchema(() =>
  z.looseObject({
    snippets: z.array(snippetSchema()).check(z.maxLength(10_000)),
    /** Snippets the deployment keeps, and the most it keeps. */
    total: z.number(),
    max: z.number(),
  }),
);
export type SnippetList = z.infer<ReturnType<typeof snippetListSchema>>;

export const savedSnippetSchema = lazySchema(() => z.looseObject({ snippet: snippetSchema() }));

/** What the reviewer writes of a snippet; the server checks the same limits. */
export interface SnippetDraft {
  title: string;
  text: string;
  tag: string | null;
}

/** The server's caps (server/snippets/types.ts SNIPPET_LIMITS): said in the form before it sends. */
export const SNIPPET_TITLE_MAX = 100;
export const SNIPPET_TEXT_MAX = 4_000;
export const SNIPPET_TAG_MAX = 64;
