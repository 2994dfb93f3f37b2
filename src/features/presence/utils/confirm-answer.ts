import type { QueryClient } from '@tanstack/react-query';
import { teamKeys } from '../api/queries';
import type { TeamState, TeamSubject } from '../api/schemas';
import { claimOn, shortName } from './team-policy';

/** Who else holds this question (short name), or null: then the answer goes without asking. */
export function otherHolder(
  question: TeamSubject,
  queryClient: QueryClient,
  now: number,
): string | null {
  const state = queryClient.getQueryData<TeamState | null>(teamKeys.state());
  const me = queryClient.getQueryData<string | null>(teamKeys.me()) ?? null;
  const claim = claimOn(state, question, now);
  return claim && claim.reviewer !== me ? shortName(claim.reviewer) : null;
}
