import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type Db, openEmbedded } from './engine';
import { migrate } from './migrations';

/** What the trail, the team and the snippets write, emptied before each test (entries before their outcomes). */
const TABLES = ['audit_entries', 'audit_outcomes', 'claims', 'answer_snippets'];

/**
 * One embedded database for a test file (opening one runs initdb: seconds), migrated, handed to
 * `opened`, emptied before each test and closed after the file.
 */
export function withEmbeddedDb(opened: (db: Db) => void): void {
  let db: Db | null = null;
  beforeAll(async () => {
    db = await openEmbedded(null);
    await migrate(db);
    opened(db);
  }, 60_000);
  afterAll(async () => {
    await db?.close();
  });
  beforeEach(async () => {
    for (const table of TABLES) await db?.query(`DELETE FROM ${table}`);
  });
}
