// Claims kept in memory: the static demo keeps them in IndexedDB between its workers.
import type { Claim, ClaimStore } from './types';

export interface MemoryClaims extends ClaimStore {
  snapshot(): Claim[];
  /** False when `saved` is not a list of claims (then the claims stay as they are). */
  restore(saved: unknown): boolean;
  clear(): void;
}

/**
 * Claims in memory, with the rules server/team/queries.ts asks PostgreSQL for: one holder per
 * question while unexpired, a renewal by the holder, at most `maxClaims` others per reviewer.
 * `onChange` runs after every change, for whoever persists them.
 */
export function memoryClaims(
  options: { now?: () => number; onChange?: () => void } = {},
): MemoryClaims {
  const now = options.now ?? Date.now;
  let held: Claim[] = [];
  const live = (claim: Claim, at: number) => Date.parse(claim.expiresAt) > at;
  const same = (claim: Claim, sourceId: string, questionId: string) =>
    claim.sourceId === sourceId && claim.questionId === questionId;
  const changed = () => options.onChange?.();

  return {
    async take(claim, minutes, maxClaims) {
      const at = now();
      const others = held.filter(
        (c) =>
          c.reviewer === claim.reviewer &&
          live(c, at) &&
          !same(c, claim.sourceId, claim.questionId),
      ).length;
      if (others >= maxClaims) return { ok: false, reason: 'limit', held: others };
      const holder = held.find((c) => same(c, claim.sourceId, claim.questionId));
      if (holder && live(holder, at) && holder.reviewer !== claim.reviewer) {
        return { ok: false, reason: 'held', holder: { ...holder } };
      }
      const taken: Claim = {
        ...claim,
        claimedAt: new Date(at).toISOString(),
        expiresAt: new Date(at + minutes * 60_000).toISOString(),
      };
      held = [...held.filter((c) => c !== holder), taken];
      changed();
      return { ok: true, claim: { ...taken } };
    },
    async drop(sourceId, questionIds, reviewer) {
      const gone = held.filter(
        (c) =>
          c.sourceId === sourceId &&
          questionIds.includes(c.questionId) &&
          (reviewer === null || c.reviewer === reviewer),
      );
      if (gone.length === 0) return [];
      held = held.filter((c) => !gone.includes(c));
      changed();
      return gone.map((c) => ({ ...c }));
    },
    async list() {
      const at = now();
      return held
        .filter((c) => live(c, at))
        .sort((a, b) => Date.parse(a.claimedAt) - Date.parse(b.claimedAt))
        .map((c) => ({ ...c }));
    },
    async prune() {
      const at = now();
      const gone = held.filter((c) => !live(c, at));
      if (gone.length === 0) return [];
      held = held.filter((c) => live(c, at));
      changed();
      return gone;
    },
    snapshot: () => held.map((c) => ({ ...c })),
    restore(saved) {
      if (!Array.isArray(saved)) return false;
      held = saved.filter(
        (c): c is Claim =>
          typeof c === 'object' &&
          c !== null &&
          typeof c.sourceId === 'string' &&
          typeof c.questionId === 'string' &&
          typeof c.reviewer === 'string' &&
          typeof c.expiresAt === 'string' &&
          typeof c.claimedAt === 'string',
      );
      return true;
    },
    clear() {
      held = [];
      changed();
    },
  };
}
