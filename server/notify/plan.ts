// Which deliveries the open questions call for now: pure, so the rules are tested without a
// database or a clock. A delivery is owed once per (question, route, receiver, occasion); the
// outbox's key makes "once" hold across passes, replicas and restarts.
import type { WatchedQuestion } from '../watch/store';
import type { GroupLabel, Route } from './config';

export type OccasionKind = 'new' | 'escalate' | 'repeat';

export interface Owed {
  sourceId: string;
  questionId: string;
  route: string;
  receiver: string;
  /** `new`, `escalate` or `repeat-<n>` (the n-th reminder). */
  occasion: string;
  /** The occasion's kind and the grouped labels' values: one message per group at a time. */
  groupKey: string;
}

/** How the inbox names a question (claims use it): a Reflexio id, or `<source>:<id>` otherwise. */
export function inboxId(question: Pick<WatchedQuestion, 'kind' | 'sourceId' | 'questionId'>) {
  return question.kind === 'reflexio'
    ? question.questionId
    : `${question.sourceId}:${question.questionId}`;
}

export const agentOf = (q: Pick<WatchedQuestion, 'agent' | 'user'>) => q.agent ?? q.user ?? '';

function label(question: WatchedQuestion, name: GroupLabel): string {
  if (name === 'system') return question.sourceId;
  if (name === 'agent') return agentOf(question);
  return question.tool ?? '';
}

export function minutesLeft(question: WatchedQuestion, now: number): number | null {
  return question.expiresAt === null ? null : (Date.parse(question.expiresAt) - now) / 60_000;
}

/** What the rules read of a question, worked out once per pass rather than once per route. */
interface Facts {
  question: WatchedQuestion;
  agent: string | null;
  /** Minutes left; null without an expiry. */
  left: number | null;
  firstSeenMs: number;
  claimed: boolean;
}

function factsOf(question: WatchedQuestion, claimed: boolean, now: number): Facts {
  return {
    question,
    agent: question.agent ?? question.user,
    left: minutesLeft(question, now),
    firstSeenMs: Date.parse(question.firstSeen),
    claimed,
  };
}

function fits(route: Route, f: Facts): boolean {
  const { match } = route;
  const { question } = f;
  if (match.system && !match.system.includes(question.sourceId)) return false;
  if (match.agent && (f.agent === null || !match.agent.includes(f.agent))) return false;
  if (match.tool && (question.tool === null || !match.tool.includes(question.tool))) return false;
  if (match.tag && !question.tags.some((tag) => match.tag?.includes(tag))) return false;
  if (match.minutesLeft !== undefined && (f.left === null || f.left > match.minutesLeft)) {
    return false;
  }
  return true;
}

export function matches(route: Route, question: WatchedQuestion, now: number): boolean {
  return fits(route, factsOf(question, false, now));
}

function occasionFor(
  route: Route,
  f: Facts,
  now: number,
): { kind: OccasionKind; occasion: string } | null {
  if (!fits(route, f)) return null;
  if (route.escalateMinutesLeft !== null) {
    if (f.claimed || f.left === null || f.left > route.escalateMinutesLeft) return null;
    return { kind: 'escalate', occasion: 'escalate' };
  }
  if (route.repeatIntervalMs > 0 && !f.claimed) {
    const n = Math.floor((now - f.firstSeenMs) / route.repeatIntervalMs);
    if (n >= 1) return { kind: 'repeat', occasion: `repeat-${n}` };
  }
  return { kind: 'new', occasion: 'new' };
}

const isOpen = (question: WatchedQuestion, left: number | null) =>
  question.status === 'pending' && question.closedSeen === null && (left === null || left > 0);

/** The occasion a route owes a question now, if any (one per route: the latest that applies). */
export function occasionOf(
  route: Route,
  question: WatchedQuestion,
  claimed: boolean,
  now: number,
): { kind: OccasionKind; occasion: string } | null {
  const f = factsOf(question, claimed, now);
  return isOpen(question, f.left) ? occasionFor(route, f, now) : null;
}

/**
 * Every delivery the routes owe these open questions now. A reminder is owed as its number
 * comes, never the ones missed (a replica down for hours sends one, not a backlog); the first
 * notice of a question is owed even when its first reminder is already due.
 */
export function plan(
  questions: readonly WatchedQuestion[],
  claimed: ReadonlySet<string>,
  routes: readonly Route[],
  now: number,
): Owed[] {
  const out: Owed[] = [];
  for (const question of questions) {
    const f = factsOf(question, claimed.has(`${question.sourceId}\n${inboxId(question)}`), now);
    if (!isOpen(question, f.left)) continue;
    for (const route of routes) {
      const found = occasionFor(route, f, now);
      if (!found) continue;
      const kinds =
        found.kind === 'repeat' ? [found, { kind: 'new' as const, occasion: 'new' }] : [found];
      for (const { kind, occasion } of kinds) {
        const groupKey = [
          kind,
          ...route.groupBy.map((name) => `${name}=${label(question, name)}`),
        ].join('|');
        for (const receiver of route.receivers) {
          out.push({
            sourceId: question.sourceId,
            questionId: question.questionId,
            route: route.name,
            receiver,
            occasion,
            groupKey,
          });
        }
      }
    }
  }
  return out;
}

/** A group's next message is due once its first waiting item has waited and its interval passed. */
export function groupDue(
  route: Pick<Route, 'groupWaitMs' | 'groupIntervalMs'>,
  firstWaitingAt: number,
  lastSentAt: number | null,
  now: number,
): boolean {
  if (now < firstWaitingAt + route.groupWaitMs) return false;
  return lastSentAt === null || now >= lastSentAt + route.groupIntervalMs;
}
