// What the watcher keeps of a question goes with the trail's retention (AUDIT_RETENTION_DAYS):
// a question closed longer ago than that is removed by the trail's daily pruning, as start.ts
// schedules it; an open question stays however old it is.
import { describe, expect, it, vi } from 'vitest';
import { scheduleRetention } from '../audit/sql';
import type { Db } from '../db/engine';
import { withEmbeddedDb } from '../db/test-db';
import { pruneClosedQuestions } from './store';

let db: Db;
withEmbeddedDb((opened) => {
  db = opened;
});

async function question(id: string, firstSeenDaysAgo: number, closedDaysAgo: number | null) {
  await db.query(
    `INSERT INTO watched_questions (source_id, question_id, kind, unit_id, asked, status,
       first_seen, closed_seen)
     VALUES ('reflexio', $1, 'reflexio', $1, 'Ship it?', $2,
             now() - make_interval(days => $3::int),
             CASE WHEN $4::int IS NULL THEN NULL ELSE now() - make_interval(days => $4::int) END)`,
    [id, closedDaysAgo === null ? 'pending' : 'resolved', firstSeenDaysAgo, closedDaysAgo],
  );
}

async function kept(): Promise<string[]> {
  const rows = await db.query<{ question_id: string }>(
    'SELECT question_id FROM watched_questions ORDER BY question_id',
  );
  return rows.map((row) => row.question_id);
}

describe('retention of the watched questions', () => {
  it('the daily pruning removes questions closed before the cutoff, never open ones', async () => {
    await db.query('DELETE FROM watched_questions');
    await question('closed-long-ago', 60, 45);
    await question('closed-lately', 60, 5);
    await question('open-long', 90, null);
    const log: string[] = [];
    const stop = scheduleRetention(db, 30, (line) => log.push(line), [
      { what: 'closed questions', prune: (days) => pruneClosedQuestions(db, days) },
    ]);
    try {
      await vi.waitFor(
        () => expect(log).toContain('[audit] removed 1 closed questions older than 30 days'),
        {
          timeout: 20_000,
        },
      );
      expect(await kept()).toEqual(['closed-lately', 'open-long']);
    } finally {
      stop();
    }
  }, 30_000);

  it('counts from the day it is given', async () => {
    await db.query('DELETE FROM watched_questions');
    await question('closed-45', 60, 45);
    const later = new Date(Date.now() + 50 * 86_400_000);
    expect(await pruneClosedQuestions(db, 90)).toBe(0);
    expect(await pruneClosedQuestions(db, 90, later)).toBe(1);
    expect(await kept()).toEqual([]);
  });
});
