import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openEmbedded, openPostgres } from '../db/engine';
import { migrate, migrations } from '../db/migrations';
import { postgresAvailable, startTestPostgres, type TestPostgres } from '../db/test-postgres';
import { insertAttempts, insertOutcome, listEntries, pruneOlderThan } from './queries';
import type { AuditAttempt } from './types';

function attempt(overrides: Partial<AuditAttempt> = {}): AuditAttempt {
  return {
    requestId: crypto.randomUUID(),
    reviewer: 'alice@example.com',
    reviewerName: null,
    sourceId: 'reflexio',
    sourceKind: 'reflexio',
    questionId: 'q1',
    action: 'answer',
    answer: 'yes',
    answerMode: 'full',
    ...overrides,
  };
}

let server: TestPostgres | null = null;

const engines: { name: string; open: () => Promise<Db> }[] = [
  { name: 'embedded (PGlite)', open: () => openEmbedded(null) },
  {
    name: 'PostgreSQL',
    open: async () => {
      server ??= await startTestPostgres();
      return openPostgres(await server.createDatabase());
    },
  },
];

afterAll(async () => {
  await server?.stop();
});

// CI installs PostgreSQL (.ci/run); a laptop without it runs the embedded half and says so.
describe.each(engines)('the trail on $name', ({ name, open }) => {
  const skip = name === 'PostgreSQL' && !postgresAvailable();
  let db: Db;
  beforeAll(async () => {
    if (skip) return;
    db = await open();
    await migrate(db);
  }, 60_000);
  afterAll(async () => {
    await db?.close();
  });

  it.skipIf(skip)('runs every migration once, and again finds nothing to do', async () => {
    const rows = await db.query<{ version: number }>(
      'SELECT version FROM schema_migrations ORDER BY version',
    );
    expect(rows.map((row) => Number(row.version))).toEqual(migrations.map((m) => m.version));
    expect(await migrate(db)).toEqual([]);
  });

  it.skipIf(skip)(
    'names each question by what it asked, finds entries by it, and takes a part of a reviewer',
    async () => {
      await db.query(
        `INSERT INTO watched_questions (source_id, question_id, kind, unit_id, asked, status)
       VALUES ('vertesia', 'ask-7', 'vertesia', 'ask-7', 'Which warehouse ships the spare fan?', 'pending')`,
      );
      await insertAttempts(db, [
        attempt({
          sourceId: 'vertesia',
          sourceKind: 'vertesia',
          questionId: 'ask-7',
          reviewer: 'carol@example.com',
          reviewerName: 'Carol Jones',
        }),
        // Another system's question with the same id is not the one that asked.
        attempt({ questionId: 'ask-7', reviewer: 'carol@example.com' }),
      ]);
      const found = await listEntries(db, { search: 'SPARE fan' }, { cursor: null, limit: 50 });
      expect(found.entries.map((e) => [e.sourceId, e.questionId, e.asked])).toEqual([
        ['vertesia', 'ask-7', 'Which warehouse ships the spare fan?'],
      ]);
      const both = await listEntries(db, { questionIds: ['ask-7'] }, { cursor: null, limit: 50 });
      expect(both.entries.map((e) => e.asked)).toEqual([
        null,
        'Which warehouse ships the spare fan?',
      ]);
      const byPart = await listEntries(db, { reviewer: 'carol' }, { cursor: null, limit: 50 });
      expect(byPart.entries).toHaveLength(2);
      const byName = await listEntries(db, { reviewer: 'jones' }, { cursor: null, limit: 50 });
      expect(byName.entries.map((e) => e.sourceId)).toEqual(['vertesia']);
    },
  );

  it.skipIf(skip)('pages newest first by cursor, with each outcome joined', async () => {
    const first = attempt({ questionId: 'page-1' });
    await insertAttempts(db, [first]);
    await insertOutcome(db, { requestId: first.requestId, status: 200, detail: null });
    await insertAttempts(db, [attempt({ questionId: 'page-2', reviewer: 'bob@example.com' })]);
    await insertAttempts(db, [attempt({ questionId: 'page-3' })]);
    const one = await listEntries(db, { search: 'page-' }, { cursor: null, limit: 2 });
    expect(one.entries.map((e) => e.questionId)).toEqual(['page-3', 'page-2']);
    expect(one.nextCursor).not.toBeNull();
    const two = await listEntries(db, { search: 'page-' }, { cursor: one.nextCursor, limit: 2 });
    expect(two.entries.map((e) => e.questionId)).toEqual(['page-1']);
    expect(two.entries[0]?.status).toBe(200);
    expect(two.nextCursor).toBeNull();
    const bob = await listEntries(db, { reviewer: 'bob@example.com' }, { cursor: null, limit: 50 });
    expect(bob.entries.map((e) => e.questionId)).toEqual(['page-2']);
  });

  it.skipIf(skip)('refuses to change an entry: the trail is append-only', async () => {
    await insertAttempts(db, [attempt({ questionId: 'fixed' })]);
    await expect(
      db.query("UPDATE audit_entries SET reviewer = 'mallory' WHERE question_id = 'fixed'"),
    ).rejects.toThrow(/append-only/);
  });

  it.skipIf(skip)('prunes entries older than the retention, and only those', async () => {
    const now = new Date('2026-06-01T00:00:00Z');
    const old = attempt({ questionId: 'old', at: new Date('2026-01-01T00:00:00Z') });
    const recent = attempt({ questionId: 'recent', at: new Date('2026-05-30T00:00:00Z') });
    await insertAttempts(db, [old, recent]);
    await insertOutcome(db, { requestId: old.requestId, status: 200, detail: null });
    expect(await pruneOlderThan(db, 30, now)).toBeGreaterThanOrEqual(1);
    const left = await listEntries(db, { search: 'old' }, { cursor: null, limit: 50 });
    expect(left.entries.filter((e) => e.questionId === 'old')).toEqual([]);
    const kept = await listEntries(db, { questionIds: ['recent'] }, { cursor: null, limit: 50 });
    expect(kept.entries).toHaveLength(1);
  });
});
