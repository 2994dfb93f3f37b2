/**
 * The Insights page's indexes (server/insights/queries.ts), measured by bench/insights.ts over
 * 100,000 questions and 1,000,000 trail entries:
 * - each question's first reviewer action, read from the index alone (no visit to the table),
 *   and whether its system refused it (a small index of the refusals only);
 * - the trail's entries of a range by reviewer and action, likewise;
 * - the questions of one system, or of one agent, in a range.
 */
export const INSIGHTS_MIGRATION_SQL = `
  CREATE INDEX audit_entries_question_at ON audit_entries (question_id, source_id, at)
    INCLUDE (action, request_id);
  CREATE INDEX audit_outcomes_refused ON audit_outcomes (request_id)
    WHERE status < 200 OR status >= 400;
  CREATE INDEX audit_entries_at_reviewer ON audit_entries (at)
    INCLUDE (reviewer, action, source_id, question_id);
  CREATE INDEX watched_questions_source_seen ON watched_questions (source_id, first_seen);
  CREATE INDEX watched_questions_agent_seen ON watched_questions
    ((coalesce(agent, user_id)), first_seen);
`;
