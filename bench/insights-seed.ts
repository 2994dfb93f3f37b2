// A year of made-up history for bench/insights.ts: watched questions and trail entries, written
// by the database itself.
import type { Db } from '../server/db/engine';

/**
 * A year of history, written by the database itself (generate_series; a JS loop of inserts takes
 * minutes on the embedded engine): questions first seen evenly over 365 days across three systems,
 * 30 tags, 17 agents and 41 users; of them 5 % missed (expired, nobody acted), 5 % cancelled by
 * the agent, the newest pending, the rest answered after a wait of up to an hour. Each answered
 * question has its answer in the trail; claims, releases and edits on them and on older questions
 * make up the rest of ENTRIES, all with an outcome (2 % refused).
 */
export async function seedInsightsHistory(
  db: Db,
  QUESTIONS: number,
  ENTRIES: number,
): Promise<void> {
  const span = 365 * 86_400;
  await db.query(
    `INSERT INTO watched_questions (source_id, question_id, kind, unit_id, asked, agent, user_id,
                                    tool, tags, expires_at, status, first_seen, closed_seen)
     SELECT src, 'q' || i, src, 'q' || i, 'Question number ' || i || ' of the bench?',
            CASE WHEN i % 3 = 1 THEN 'agent-' || (i % 17) END,
            CASE WHEN i % 3 <> 1 THEN 'user-' || (i % 41) END, NULL,
            jsonb_build_array('tag-' || (i % 30)), seen + interval '1 hour',
            CASE WHEN seen > now() - interval '1 hour' THEN 'pending'
                 WHEN i % 20 = 0 THEN 'expired' WHEN i % 20 = 1 THEN 'cancelled'
                 ELSE 'resolved' END,
            seen,
            CASE WHEN seen > now() - interval '1 hour' THEN NULL
                 WHEN i % 20 = 0 THEN seen + interval '1 hour'
                 ELSE seen + ((i * 7919) % 3600) * interval '1 second' END
       FROM (SELECT i, (ARRAY['reflexio', 'vertesia', 'bilby'])[1 + i % 3] AS src,
                    now() - (i * ${span / QUESTIONS}) * interval '1 second' AS seen
               FROM generate_series(1, ${QUESTIONS}) i) g`,
  );
  // Answers: one per answered question, at its close.
  await db.query(
    `INSERT INTO audit_entries (at, request_id, reviewer, source_id, source_kind, question_id,
                                action, answer, answer_mode)
     SELECT closed_seen, 'a-' || question_id, 'reviewer' || (length(question_id) % 7) || '@example.com',
            source_id, kind, question_id, 'answer', 'yes', 'full'
       FROM watched_questions WHERE status = 'resolved'`,
  );
  const [{ n } = { n: 0 }] = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM audit_entries',
  );
  const rest = ENTRIES - Number(n);
  // The rest: claims, releases and edits, half on watched questions, half on older ones.
  await db.query(
    `INSERT INTO audit_entries (at, request_id, reviewer, source_id, source_kind, question_id,
                                action, answer, answer_mode)
     SELECT now() - (i * ${span / Math.max(1, rest)}) * interval '1 second', 'f-' || i,
            'reviewer' || (i % 9) || '@example.com', src, src,
            CASE WHEN i % 2 = 0 THEN 'q' || (1 + i % ${QUESTIONS}) ELSE 'old-' || i END,
            (ARRAY['claim', 'release', 'edit', 'claim'])[1 + i % 4], NULL, 'full'
       FROM (SELECT i, (ARRAY['reflexio', 'vertesia', 'bilby'])[1 + i % 3] AS src
               FROM generate_series(1, ${rest}) i) g`,
  );
  await db.query(
    `INSERT INTO audit_outcomes (request_id, at, status)
     SELECT request_id, at, CASE WHEN id % 50 = 0 THEN 409 ELSE 200 END FROM audit_entries`,
  );
  // As autovacuum leaves a table in use: statistics, and the visibility map index-only scans need.
  await db.query('VACUUM ANALYZE');
}
