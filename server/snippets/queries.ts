// Snippets in the database (both engines): listed, counted, created under one lock for the whole
// deployment (so replicas cannot pass the cap together), changed and removed at a version.
import type { Db, Queryable } from '../db/engine';
import type { ChangeResult, CreateResult, Snippet, SnippetStore, SnippetText } from './types';

interface SnippetRow {
  id: string;
  source_id: string;
  tag: string | null;
  title: string;
  body: string;
  created_by: string;
  created_at: Date | string;
  updated_by: string;
  updated_by_name: string | null;
  updated_at: Date | string;
  version: number;
}

function toSnippet(row: SnippetRow): Snippet {
  return {
    id: row.id,
    sourceId: row.source_id,
    tag: row.tag,
    title: row.title,
    body: row.body,
    createdBy: row.created_by,
    createdAt: new Date(row.created_at).toISOString(),
    updatedBy: row.updated_by,
    updatedByName: row.updated_by_name,
    updatedAt: new Date(row.updated_at).toISOString(),
    version: Number(row.version),
  };
}

/** PostgreSQL's unique_violation: another snippet of the system has this title and tag. */
function titleTaken(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23505';
}

export async function listSnippets(db: Queryable, sourceId: string | null): Promise<Snippet[]> {
  const rows = await db.query<SnippetRow>(
    `SELECT * FROM answer_snippets WHERE ($1::text IS NULL OR source_id = $1)
      ORDER BY lower(title), id`,
    [sourceId],
  );
  return rows.map(toSnippet);
}

export async function countSnippets(db: Queryable): Promise<number> {
  const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM answer_snippets');
  return Number(row?.n ?? 0);
}

export async function getSnippet(db: Queryable, id: string): Promise<Snippet | null> {
  const [row] = await db.query<SnippetRow>('SELECT * FROM answer_snippets WHERE id = $1', [id]);
  return row ? toSnippet(row) : null;
}

export async function createSnippet(
  db: Pick<Db, 'transaction'>,
  snippet: Parameters<SnippetStore['create']>[0],
  max: number,
): Promise<CreateResult> {
  try {
    return await db.transaction(async (tx): Promise<CreateResult> => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['answer_snippets']);
      const [row] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM answer_snippets');
      const count = Number(row?.n ?? 0);
      if (count >= max) return { ok: false, reason: 'full', count };
      const [created] = await tx.query<SnippetRow>(
        `INSERT INTO answer_snippets
           (id, source_id, tag, title, body, created_by, updated_by, updated_by_name)
         VALUES ($1, $2, $3, $4, $5, $6, $6, $7)
         RETURNING *`,
        [
          snippet.id,
          snippet.sourceId,
          snippet.tag,
          snippet.title,
          snippet.body,
          snippet.reviewer,
          snippet.reviewerName,
        ],
      );
      return { ok: true, snippet: toSnippet(created as SnippetRow) };
    });
  } catch (error) {
    if (titleTaken(error)) return { ok: false, reason: 'title-taken' };
    throw error;
  }
}

export async function updateSnippet(
  db: Queryable,
  id: string,
  version: number,
  text: SnippetText,
  reviewer: { id: string; name: string | null },
): Promise<ChangeResult> {
  const before = await getSnippet(db, id);
  if (!before) return { ok: false, reason: 'gone' };
  if (before.version !== version) return { ok: false, reason: 'changed', current: before };
  let rows: SnippetRow[];
  try {
    rows = await db.query<SnippetRow>(
      `UPDATE answer_snippets
          SET title = $3, body = $4, tag = $5, updated_by = $6, updated_by_name = $7,
              updated_at = now(), version = version + 1
        WHERE id = $1 AND version = $2
        RETURNING *`,
      [id, version, text.title, text.body, text.tag, reviewer.id, reviewer.name],
    );
  } catch (error) {
    if (titleTaken(error)) return { ok: false, reason: 'title-taken' };
    throw error;
  }
  if (rows[0]) return { ok: true, snippet: toSnippet(rows[0]), before };
  // Changed or removed between the look and the update.
  const current = await getSnippet(db, id);
  return current ? { ok: false, reason: 'changed', current } : { ok: false, reason: 'gone' };
}

export async function removeSnippet(
  db: Queryable,
  id: string,
  version: number | null,
): Promise<Exclude<ChangeResult, { reason: 'title-taken' }>> {
  const rows = await db.query<SnippetRow>(
    `DELETE FROM answer_snippets WHERE id = $1 AND ($2::int IS NULL OR version = $2)
      RETURNING *`,
    [id, version],
  );
  if (rows[0]) {
    const snippet = toSnippet(rows[0]);
    return { ok: true, snippet, before: snippet };
  }
  const current = await getSnippet(db, id);
  return current ? { ok: false, reason: 'changed', current } : { ok: false, reason: 'gone' };
}
