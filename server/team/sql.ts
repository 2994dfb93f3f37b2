// Who is on it, as the portal server keeps it: the logic is server/team/core.ts (the static demo's
// Service Worker runs it too); here claims live in the portal's database, and presence travels
// between replicas by PostgreSQL LISTEN/NOTIFY (the bus start.ts passes).
import { sqlTrail } from '../audit/sql';
import type { Db } from '../db/engine';
import type { Readiness } from '../http/health';
import { createTeamCore } from './core';
import type { TeamBus } from './link';
import { dropClaims, listClaims, pruneClaims, takeClaim } from './queries';
import { type ClaimStore, TEAM_CHANNEL, type Team, type TeamCoreOptions } from './types';

export interface TeamOptions extends Omit<TeamCoreOptions, 'claims' | 'trail'> {
  db: Db;
}

/** Claims in the portal's database (embedded PostgreSQL, or DATABASE_URL's). */
export function sqlClaims(db: Db): ClaimStore {
  return {
    take: (claim, minutes, maxClaims) => takeClaim(db, claim, minutes, maxClaims),
    drop: (sourceId, questionIds, reviewer) => dropClaims(db, sourceId, questionIds, reviewer),
    list: () => listClaims(db),
    prune: () => pruneClaims(db),
  };
}

/**
 * The bus between replicas on PostgreSQL: LISTEN and NOTIFY on a connection of their own (never
 * the pool answers are recorded through); none with the embedded database (one process is all).
 */
export function teamBus(db: Db): TeamBus | null {
  const listen = db.listen?.bind(db);
  return listen ? { open: (handlers) => listen(TEAM_CHANNEL, handlers) } : null;
}

export function createTeam(options: TeamOptions): Promise<Team> {
  const { db, ...rest } = options;
  return createTeamCore({ ...rest, claims: sqlClaims(db), trail: sqlTrail(db) });
}

/** `/readyz` for the team: degraded while presence and claims cannot reach the other replicas. */
export function teamReadiness(team: Pick<Team, 'link'>): Readiness {
  // Why it is down goes to the log only: /readyz answers anyone, and an error names addresses.
  if (team.link().link !== 'down') return { ok: true, problems: [] };
  return {
    ok: false,
    problems: [
      'Presence and claims do not reach the other replicas: the link to PostgreSQL is down; reconnecting.',
    ],
  };
}
