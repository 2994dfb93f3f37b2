import type { Db } from './engine';

/**
 * The trail's schema, one numbered step at a time. A step, once released, is never edited: a
 * change is a new step. Each runs in its own transaction under an advisory lock, so replicas
 * starting together on one PostgreSQL apply it once.
 */
export const migrations: { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'audit trail',
    sql: `
      CREATE TABLE audit_entries (
        id bigserial PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT now(),
        request_id text NOT NULL,
        reviewer text NOT NULL,
        reviewer_name text,
        source_id text NOT NULL,
        source_kind text NOT NULL,
        question_id text NOT NULL,
        action text NOT NULL,
        answer text,
        answer_mode text NOT NULL
      );
      CREATE INDEX audit_entries_request ON audit_entries (request_id);
      CREATE INDEX audit_entries_question ON audit_entries (question_id, id);
      CREATE INDEX audit_entries_reviewer ON audit_entries (reviewer, id);
      CREATE INDEX audit_entries_at ON audit_entries (at);

      CREATE TABLE audit_outcomes (
        request_id text PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT now(),
        status integer NOT NULL,
        detail text
      );

      -- Append-only: entries are added and, past retention, removed; never changed.
      CREATE FUNCTION audit_refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'the audit trail is append-only';
      END $$;
      CREATE TRIGGER audit_entries_append_only BEFORE UPDATE ON audit_entries
        FOR EACH ROW EXECUTE FUNCTION audit_refuse_update();
      CREATE TRIGGER audit_outcomes_append_only BEFORE UPDATE ON audit_outcomes
        FOR EACH ROW EXECUTE FUNCTION audit_refuse_update();
    `,
  },
  {
    // The Activity page's filters answer a page of 50 over 100,000 entries in under 50 ms: by
    // action or source (newest first), and a search in any of the text columns (trigrams; the
    // expression is the one queries.ts searches, the columns joined by a character no one types).
    version: 2,
    name: 'activity filters',
    sql: `
      CREATE INDEX audit_entries_action ON audit_entries (action, id);
      CREATE INDEX audit_entries_source ON audit_entries (source_id, id);
      CREATE EXTENSION IF NOT EXISTS pg_trgm;
      CREATE INDEX audit_entries_search ON audit_entries USING gin (
        (reviewer || chr(1) || question_id || chr(1) || coalesce(answer, '') || chr(1) ||
          coalesce(reviewer_name, '')) gin_trgm_ops
      );
    `,
  },
  {
    version: 3,
    name: 'claims',
    sql: `
      -- Who holds a question: one row per question, gone on release, answer or expiry.
      CREATE TABLE claims (
        source_id text NOT NULL,
        question_id text NOT NULL,
        reviewer text NOT NULL,
        reviewer_name text,
        claimed_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (source_id, question_id)
      );
      CREATE INDEX claims_reviewer ON claims (reviewer, expires_at);
    `,
  },
  {
    // Issue 36. An answer is kept up to AUDIT_ANSWER_MAX_BYTES, with the size and SHA-256 of the
    // whole. The search index holds the first 500 characters of an answer and is updated as each
    // entry is written (no pending list): with the whole answer, or a pending list flushed every
    // few hundred writes, one write held the embedded engine (and the server's thread) 300-600 ms.
    // `hash` is an HMAC under a key of the deployment's own, kept here.
    version: 4,
    name: 'bounded answers, keyed hashes',
    sql: `
      ALTER TABLE audit_entries ADD COLUMN answer_bytes integer;
      ALTER TABLE audit_entries ADD COLUMN answer_sha256 text;
      DROP INDEX audit_entries_search;
      CREATE INDEX audit_entries_search ON audit_entries USING gin (
        (reviewer || chr(1) || question_id || chr(1) || left(coalesce(answer, ''), 500) ||
          chr(1) || coalesce(reviewer_name, '')) gin_trgm_ops
      ) WITH (fastupdate = off);
      CREATE TABLE audit_keys (
        name text PRIMARY KEY,
        key text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    // Whether the reviewer typed their own name in the browser (no REVIEWER_HEADER) or the SSO
    // proxy named them; null for entries written before it was recorded.
    version: 5,
    name: 'self-named reviewers',
    sql: `
      ALTER TABLE audit_entries ADD COLUMN reviewer_self_named boolean;
    `,
  },
  {
    // The watcher's copy of each system (server/watch/store.ts) and what the server knows of every
    // question it has seen: first seen, closed seen.
    version: 6,
    name: 'watched systems',
    sql: `
  CREATE TABLE watch_sources (
    source_id text PRIMARY KEY,
    kind text NOT NULL,
    version bigint NOT NULL DEFAULT 0,
    list_order text NOT NULL DEFAULT '[]',
    pending_order text,
    truncated boolean NOT NULL DEFAULT false,
    read_at timestamptz,
    clock_offset_ms integer NOT NULL DEFAULT 0,
    error text,
    error_at timestamptz
  );
  CREATE TABLE watch_units (
    source_id text NOT NULL,
    unit_id text NOT NULL,
    wire text NOT NULL,
    summary text,
    changed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (source_id, unit_id)
  );
  CREATE TABLE watch_changes (
    source_id text NOT NULL,
    version bigint NOT NULL,
    at timestamptz NOT NULL DEFAULT now(),
    payload text NOT NULL,
    PRIMARY KEY (source_id, version)
  );
  CREATE TABLE watched_questions (
    source_id text NOT NULL,
    question_id text NOT NULL,
    kind text NOT NULL,
    unit_id text NOT NULL,
    asked text NOT NULL,
    agent text,
    user_id text,
    tool text,
    tags jsonb NOT NULL DEFAULT '[]',
    expires_at timestamptz,
    status text NOT NULL,
    first_seen timestamptz NOT NULL DEFAULT now(),
    closed_seen timestamptz,
    PRIMARY KEY (source_id, question_id)
  );
  CREATE INDEX watched_questions_open ON watched_questions (source_id, expires_at)
    WHERE closed_seen IS NULL;
  CREATE INDEX watched_questions_unit ON watched_questions (source_id, unit_id);
  CREATE INDEX watched_questions_first_seen ON watched_questions (first_seen);
  CREATE INDEX watched_questions_closed_seen ON watched_questions (closed_seen);
`,
  },
  {
    // The Insights page's indexes (server/insights/queries.ts), measured by bench/insights.ts over
    // 100,000 questions and 1,000,000 trail entries:
    // - each question's first reviewer action, read from the index alone (no visit to the table),
    // and whether its system refused it (a small index of the refusals only);
    // - the trail's entries of a range by reviewer and action, likewise;
    // - the questions of one system, or of one agent, in a range.
    version: 7,
    name: 'insights',
    sql: `
  CREATE INDEX audit_entries_question_at ON audit_entries (question_id, source_id, at)
    INCLUDE (action, request_id);
  CREATE INDEX audit_outcomes_refused ON audit_outcomes (request_id)
    WHERE status < 200 OR status >= 400;
  CREATE INDEX audit_entries_at_reviewer ON audit_entries (at)
    INCLUDE (reviewer, action, source_id, question_id);
  CREATE INDEX watched_questions_source_seen ON watched_questions (source_id, first_seen);
  CREATE INDEX watched_questions_agent_seen ON watched_questions
    ((coalesce(agent, user_id)), first_seen);
`,
  },
  {
    // Notifications (server/notify/): what each route owes each receiver, one row per (question,
    // route, receiver, occasion) written before anything is sent (the key makes it once across
    // replicas and restarts); the messages those rows are grouped into, an outbox that any replica
    // sends from (claimed with FOR UPDATE SKIP LOCKED, retried with back-off); when each group last
    // sent; the Web Push keys, made once; and each reviewer's devices.
    version: 8,
    name: 'notifications',
    sql: `
  CREATE TABLE notify_items (
    source_id text NOT NULL,
    question_id text NOT NULL,
    route text NOT NULL,
    receiver text NOT NULL,
    occasion text NOT NULL,
    group_key text NOT NULL,
    created_at timestamptz NOT NULL,
    message_id bigint,
    PRIMARY KEY (source_id, question_id, route, receiver, occasion)
  );
  CREATE INDEX notify_items_waiting ON notify_items (route, receiver, group_key, created_at)
    WHERE message_id IS NULL;
  CREATE INDEX notify_items_message ON notify_items (message_id);
  CREATE TABLE notify_groups (
    route text NOT NULL,
    receiver text NOT NULL,
    group_key text NOT NULL,
    last_sent_at timestamptz,
    PRIMARY KEY (route, receiver, group_key)
  );
  CREATE TABLE notify_messages (
    id bigserial PRIMARY KEY,
    route text NOT NULL,
    receiver text NOT NULL,
    group_key text NOT NULL,
    occasion text NOT NULL,
    status text NOT NULL DEFAULT 'pending',
    attempts integer NOT NULL DEFAULT 0,
    next_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL,
    done_at timestamptz,
    last_error text
  );
  CREATE INDEX notify_messages_due ON notify_messages (next_at) WHERE status = 'pending';
  CREATE INDEX notify_messages_status ON notify_messages (status, created_at);
  CREATE TABLE notify_vapid (
    id integer PRIMARY KEY CHECK (id = 1),
    public_key text NOT NULL,
    private_key text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE TABLE push_subscriptions (
    endpoint text PRIMARY KEY,
    reviewer text NOT NULL,
    p256dh text NOT NULL,
    auth text NOT NULL,
    choice jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX push_subscriptions_reviewer ON push_subscriptions (reviewer);
`,
  },
  {
    // The Activity page's search finds entries by what their question asked (server/audit/
    // queries.ts looks the text up here first). Version 8 is left to the notifications' outbox.
    version: 9,
    name: 'questions found by what they asked',
    sql: `
  CREATE INDEX watched_questions_asked ON watched_questions USING gin (asked gin_trgm_ops);
`,
  },
  {
    // The team's saved answers (server/snippets/): one row per snippet, for one system and
    // optionally one tag, one title per system and tag whatever its case. Who changed each is in
    // the trail (actions snippet-create, snippet-edit, snippet-delete); `version` makes an edit
    // of a snippet someone else changed meanwhile a conflict instead of a silent overwrite.
    version: 10,
    name: 'answer snippets',
    sql: `
  CREATE TABLE answer_snippets (
    id uuid PRIMARY KEY,
    source_id text NOT NULL,
    tag text,
    title text NOT NULL,
    body text NOT NULL,
    created_by text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_by text NOT NULL,
    updated_by_name text,
    updated_at timestamptz NOT NULL DEFAULT now(),
    version integer NOT NULL DEFAULT 1
  );
  CREATE UNIQUE INDEX answer_snippets_title ON answer_snippets
    (source_id, coalesce(tag, ''), lower(title));
`,
  },
  {
    // A question's quick answers (the choices its answer format offers, at most 3 of 40
    // characters: server/watch/wire.ts), which a notification about it offers as its actions.
    version: 11,
    name: 'quick answers of watched questions',
    sql: `
  ALTER TABLE watched_questions ADD COLUMN choices jsonb NOT NULL DEFAULT '[]';
`,
  },
];

const LOCK_KEY = 27_000_027;

/** Applies every step the database has not seen; returns the versions applied now. */
export async function migrate(db: Db): Promise<number[]> {
  // Under the lock too: two replicas creating the table at once can both pass IF NOT EXISTS, and
  // one then fails on PostgreSQL's catalog ("duplicate key … pg_type_typname_nsp_index").
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version integer PRIMARY KEY,
         name text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
  });
  const applied: number[] = [];
  for (const step of migrations) {
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
      const seen = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [
        step.version,
      ]);
      if (seen.length > 0) return false;
      for (const statement of splitStatements(step.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        step.version,
        step.name,
      ]);
      return true;
    });
    if (done) applied.push(step.version);
  }
  return applied;
}

/** Statements split on `;` at a line's end, keeping `$$ … $$` bodies whole. */
export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let current = '';
  let inBody = false;
  for (const line of sql.split('\n')) {
    current += `${line}\n`;
    if ((line.match(/\$\$/g) ?? []).length % 2 === 1) inBody = !inBody;
    if (!inBody && /;\s*$/.test(line)) {
      const statement = current.trim().replace(/;$/, '');
      if (statement.replace(/^\s*--.*$/gm, '').trim()) out.push(statement);
      current = '';
    }
  }
  if (current.trim()) out.push(current.trim());
  return out;
}
