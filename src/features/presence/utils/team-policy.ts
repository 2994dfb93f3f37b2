import { showBidiControls } from '@/lib/show-bidi';
import type { Claim, TeamState, TeamSubject, Viewer } from '../api/schemas';

/** "alice" of "alice@example.com": short enough for a row. */
export function shortName(reviewer: string): string {
  const at = reviewer.indexOf('@');
  return showBidiControls(at > 0 ? reviewer.slice(0, at) : reviewer);
}

const sameQuestion = (item: { sourceId: string; questionId: string }, q: TeamSubject) =>
  item.sourceId === q.source.id && item.questionId === q.id;

/** The other reviewers with this question open (never oneself), the typing ones first. */
export function othersViewing(
  state: TeamState | null | undefined,
  question: TeamSubject,
  me: string | null,
): Viewer[] {
  if (!state) return [];
  return state.viewers
    .filter((viewer) => sameQuestion(viewer, question) && viewer.reviewer !== me)
    .sort((a, b) => Number(b.typing) - Number(a.typing) || a.reviewer.localeCompare(b.reviewer));
}

/** The claim on this question still holding at `now` (the server's time), or null. */
export function claimOn(
  state: TeamState | null | undefined,
  question: TeamSubject,
  now: number,
): Claim | null {
  return (
    state?.claims.find(
      (claim) => sameQuestion(claim, question) && Date.parse(claim.expiresAt) > now,
    ) ?? null
  );
}

/**
 * Whole minutes left, rounded up: "12 min left" until the last minute says "1 min left"; never
 * more than the claim was taken for (the page's estimate of the server's time may lag it by up to
 * a tick, which made a fresh 15-minute claim say "16 min left").
 */
export function minutesLeft(claim: Claim, now: number): number {
  const expires = Date.parse(claim.expiresAt);
  const length = Math.ceil((expires - Date.parse(claim.claimedAt)) / 60_000);
  const left = Math.ceil((expires - now) / 60_000);
  return Math.max(1, length > 0 ? Math.min(length, left) : left);
}

export const claimedFilters = ['anyone', 'mine', 'unclaimed'] as const;
export type ClaimedFilter = (typeof claimedFilters)[number];

/** The `claimed` URL parameter read leniently: anything else is no filter. */
export function parseClaimedFilter(value: string | null): ClaimedFilter | null {
  return (claimedFilters as readonly string[]).includes(value ?? '')
    ? (value as ClaimedFilter)
    : null;
}

/** Whether a question stays in the list under the Claimed filter. */
export function keepsQuestion(
  filter: ClaimedFilter | null,
  state: TeamState | null | undefined,
  question: TeamSubject,
  me: string | null,
  now: number,
): boolean {
  if (filter === null) return true;
  const claim = claimOn(state, question, now);
  if (filter === 'anyone') return claim !== null;
  if (filter === 'mine') return claim !== null && claim.reviewer === me;
  return claim === null;
}

/** The server's time, from the browser's, by the offset the last snapshot showed. */
export function serverOffset(state: TeamState, receivedAt: number): number {
  const at = Date.parse(state.serverTime);
  return Number.isNaN(at) ? 0 : at - receivedAt;
}
