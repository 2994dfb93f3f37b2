/**
 * Every route the portal has, written once: the router (src/app/router.tsx), start-up's prefetch
 * and every link build on these. public/prefetch.js is a plain script that cannot import them; its
 * path test is checked against them in src/app/prefetch.test.ts.
 */

/** The list of questions. */
export const QUESTIONS_PATH = '/questions';

/** One question, open in a drawer over the list (build its address with `questionPath`). */
export const QUESTION_ROUTE = `${QUESTIONS_PATH}/:id`;

/** The inbox page: the list, with or without an open question. */
export const INBOX_ROUTE = `${QUESTIONS_PATH}/:id?`;

/** Who did what through the portal (the audit trail). */
export const ACTIVITY_PATH = '/activity';

/** How the team is doing: waits, missed questions, where the work comes from (docs/insights.md). */
export const INSIGHTS_PATH = '/insights';
