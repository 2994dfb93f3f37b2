// Tests only: puts records of the in-memory shape (server/insights/memory.ts) in a database, as
// the watcher and the trail would have written them, so SQL and memory can be given the same.

import { insertAttempts, insertOutcome } from '../audit/queries';
import type { Queryable } from '../db/engine';
import type { MemoryRecords } from './memory';

export async function writeRecords(db: Queryable, records: MemoryRecords): Promise<void> {
  for (const q of records.questions) {
    await db.query(
      `INSERT INTO watched_questions (source_id, question_id, kind, unit_id, asked, agent, user_id,
         tags, expires_at, status, first_seen, closed_seen)
       VALUES ($1, $2, $3, $2, $4, $5, $6, $7::jsonb, $8, $9, $10, $11)`,
      [
        q.sourceId,
        q.questionId,
        q.kind,
        q.asked,
        q.agent,
        q.user,
        JSON.stringify(q.tags),
        q.expiresAt,
        q.status,
        q.firstSeen,
        q.closedSeen,
      ],
    );
  }
  for (const [index, e] of records.entries.entries()) {
    const requestId = `req-${index}`;
    await insertAttempts(db, [
      {
        requestId,
        reviewer: e.reviewer,
        reviewerName: e.reviewerName,
        sourceId: e.sourceId,
        sourceKind: e.sourceId,
        questionId: e.questionId,
        action: e.action as 'answer',
        answer: null,
        answerMode: 'none',
        at: new Date(e.at),
      },
    ]);
    if (e.status !== null) await insertOutcome(db, { requestId, status: e.status, detail: null });
  }
  for (const c of records.claims) {
    await db.query(
      `INSERT INTO claims (source_id, question_id, reviewer, expires_at) VALUES ($1, $2, 'bob', $3)`,
      [c.sourceId, c.questionId, c.expiresAt],
    );
  }
}
