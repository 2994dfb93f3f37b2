// Who is on it, as the portal server keeps it: the logic is server/team-core.ts (the static demo's
// Service Worker runs it too); here claims live in the portal's database, and presence travels
// between replicas by PostgreSQL LISTEN/NOTIFY (the bus start.ts passes).
import { sqlTrail } from './audit';
import type { Db } from './db/engine';
import { dropClaims, listClaims, pruneClaims, takeClaim } from './db/queries';
import { type ClaimStore, createTeamCore, type Team, type TeamCoreOptions } from './team-core';

export {
  type Claim,
  DEFAULT_TEAM_CONFIG,
  TEAM_CHANNEL,
  type Team,
  type TeamBus,
  type TeamConfig,
  type TeamSnapshot,
  type Viewer,
} from './team-core';

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

export function createTeam(options: TeamOptions): Promise<Team> {
  const { db, ...rest } = options;
  return createTeamCore({ ...rest, claims: sqlClaims(db), trail: sqlTrail(db) });
}
