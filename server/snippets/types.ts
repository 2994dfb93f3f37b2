// The team's saved answers ("snippets"), in words the server, its queries and the static demo's
// Service Worker share: a snippet, where snippets are kept, and their limits (no Node built-ins).

/** One saved answer, offered in the answer box of its system's questions (its tag's first). */
export interface Snippet {
  /** A UUID the server gives it (known before it is stored, so the trail can name it first). */
  id: string;
  /** The system it is for (config.json's source id). */
  sourceId: string;
  /** Offered first on questions with this tag; null: any question of the system. */
  tag: string | null;
  title: string;
  /** The text put into the answer box. */
  body: string;
  createdBy: string;
  createdAt: string;
  updatedBy: string;
  updatedByName: string | null;
  updatedAt: string;
  /** 1 when created, one more at each edit: an edit names the version it changes. */
  version: number;
}

/** What a reviewer writes of a snippet. */
export interface SnippetText {
  title: string;
  body: string;
  tag: string | null;
}

export type CreateResult =
  | { ok: true; snippet: Snippet }
  | { ok: false; reason: 'full'; count: number }
  | { ok: false; reason: 'title-taken' };

export type ChangeResult =
  | { ok: true; snippet: Snippet; before: Snippet }
  | { ok: false; reason: 'gone' }
  | { ok: false; reason: 'changed'; current: Snippet }
  | { ok: false; reason: 'title-taken' };

/** Where snippets are kept: the portal's database (server/snippets/sql.ts) or memory (the demo). */
export interface SnippetStore {
  /** Every snippet, or one system's, by title. */
  list(sourceId: string | null): Promise<Snippet[]>;
  /** How many snippets the deployment keeps. */
  count(): Promise<number>;
  get(id: string): Promise<Snippet | null>;
  /**
   * Stores a new snippet unless the deployment already keeps `max`, or its system has one of that
   * title and tag (case aside). Two at once (two replicas) cannot both pass the count.
   */
  create(
    snippet: {
      id: string;
      sourceId: string;
      reviewer: string;
      reviewerName: string | null;
    } & SnippetText,
    max: number,
  ): Promise<CreateResult>;
  /** Changes version `version` of snippet `id`; refused when it is gone or at another version. */
  update(
    id: string,
    version: number,
    text: SnippetText,
    reviewer: { id: string; name: string | null },
  ): Promise<ChangeResult>;
  /** Removes version `version` (null: whichever) of snippet `id`. */
  remove(
    id: string,
    version: number | null,
  ): Promise<Exclude<ChangeResult, { reason: 'title-taken' }>>;
}

export const SNIPPET_LIMITS = {
  /** A request's body: a snippet's title, tag and text, with room for JSON's escapes. */
  bodyBytes: 16 * 1024,
  titleChars: 100,
  textChars: 4_000,
  tagChars: 64,
  /** Snippets one deployment keeps. */
  max: 500,
  /** Creates, edits and deletes one reviewer may make a minute. */
  writesPerMinute: 60,
} as const;

export const SNIPPETS_PATH = '/portal-api/snippets';

/** How the trail names a snippet in its `question_id` column. */
export const snippetTrailId = (id: string) => `snippet:${id}`;
