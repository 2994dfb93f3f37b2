// The static demo's Insights page has no watcher and no year of trail behind it: it shows a few
// days of made-up activity instead, the same every time for a given hour (a seeded generator),
// computed by the server's own definitions over arrays (server/insights/memory.ts).
import { mulberry32 } from '../mock/source-kit';
import type { EntryRecord, MemoryRecords, QuestionRecord } from '../server/insights/memory';

/** Days of history before now. */
export const HISTORY_DAYS = 5;

const HOUR = 3_600_000;
const SOURCES = ['reflexio', 'vertesia', 'bilby'] as const;
const REVIEWERS = ['sam@example.com', 'alice@example.com', 'bob@example.com', 'Reviewer'];
const TAGS = ['billing', 'infra', 'legal', 'data', 'security', 'onboarding'];
const AGENTS = ['release-planner', 'invoice-bot', 'research-agent'];
const USERS = ['user-42', 'user-7', 'user-19'];
const ASKS = [
  'May I roll back the deploy of the payments service?',
  'Refund order 1182 in full, or only the shipping?',
  'Which region should the new bucket live in?',
  'Can I share the Q3 figures with the partner?',
  'Rotate the staging database password now?',
  'Send the onboarding email to the new team?',
  'Delete the 40 stale preview environments?',
  'Approve the contract change on clause 7?',
];

/**
 * About 30 questions a day over HISTORY_DAYS up to `now`, across the three systems: most answered
 * after a wait of a few seconds to an hour (longer at night), some missed (expired with nobody
 * acting), some cancelled by their agent, the last few still waiting; each answer, and a claim
 * now and then, in the trail.
 */
export function simulatedHistory(now: number): MemoryRecords {
  const hour = Math.floor(now / HOUR);
  const next = mulberry32(hour);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const questions: QuestionRecord[] = [];
  const entries: EntryRecord[] = [];
  const start = (hour - HISTORY_DAYS * 24) * HOUR;
  let n = 0;
  for (let at = start, step = 0; at < now; at += step) {
    n += 1;
    step = (0.2 + next() * 1.4) * HOUR;
    // The newest is still waiting, whatever the seed.
    const newest = at + step >= now;
    // One missed question at least, whatever the seed (the page's list is never empty here).
    const alwaysMissed = n === 3;
    const sourceId = alwaysMissed ? 'reflexio' : pick(SOURCES);
    const questionId = sourceId === 'bilby' ? `sim-conv-${n}:call-1` : `sim-${n}`;
    const night = new Date(at).getUTCHours() < 7;
    const wait = (night ? 600 + next() * 5400 : 20 + next() ** 3 * 3000) * 1000;
    const expiresAt = at + (sourceId === 'bilby' ? 0 : (0.5 + next()) * HOUR);
    const roll = next();
    const fate =
      at + wait > now || newest
        ? 'waiting'
        : roll < 0.08 || alwaysMissed
          ? 'missed'
          : roll < 0.13
            ? 'cancelled'
            : 'answered';
    const closedAt =
      fate === 'answered'
        ? at + wait + 5000
        : fate === 'missed'
          ? expiresAt + 20_000
          : fate === 'cancelled'
            ? at + wait / 2
            : null;
    const closedSeen =
      closedAt === null || closedAt > now ? null : new Date(closedAt).toISOString();
    questions.push({
      sourceId,
      questionId,
      kind: sourceId,
      asked: pick(ASKS),
      agent: sourceId === 'vertesia' ? pick(AGENTS) : null,
      user: sourceId === 'reflexio' ? pick(USERS) : null,
      tags: sourceId === 'vertesia' ? [] : [pick(TAGS)],
      expiresAt: sourceId === 'bilby' ? null : new Date(expiresAt).toISOString(),
      status:
        closedSeen === null
          ? 'pending'
          : fate === 'answered'
            ? 'resolved'
            : fate === 'missed' && sourceId !== 'bilby'
              ? 'expired'
              : 'cancelled',
      firstSeen: new Date(at).toISOString(),
      closedSeen,
    });
    const reviewer = pick(REVIEWERS);
    if (next() < 0.3 && fate !== 'cancelled') {
      entries.push({
        at: new Date(at + Math.min(wait, 60_000) / 2).toISOString(),
        reviewer,
        reviewerName: null,
        sourceId,
        questionId,
        action: 'claim',
        status: 200,
      });
    }
    if (fate === 'answered') {
      entries.push({
        at: new Date(at + wait).toISOString(),
        reviewer,
        reviewerName: null,
        sourceId,
        questionId,
        action: next() < 0.85 ? 'answer' : 'not-applicable',
        status: 200,
      });
    }
  }
  return { questions, entries, claims: [] };
}
