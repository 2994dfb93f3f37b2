import { lazyPart } from '@/components/load-boundary';
import type { AuditParts, TeamParts } from '@/config/shell-context';

// The audit trail's screens load when first shown, never with the first screen.
const history = () => import('@/features/activity/components/question-history');
const row = () => import('@/features/activity/components/acted-by');
// Presence and claims: none of their code is in the first download. It is asked for when the first
// rows render (the list's data is in) or, above the list, once the drawer's code has loaded.
const team = () => import('@/features/presence/parts');

export const auditParts: AuditParts = {
  History: lazyPart(() => history().then((m) => m.QuestionHistory)),
  // A closed row says who acted; a pending one who is on it (one part per row, so a row costs the
  // first screen nothing more for presence).
  ActedBy: lazyPart(() => Promise.all([row(), team()]).then(([a, t]) => t.withRowTeam(a.ActedBy))),
};

export const teamParts: TeamParts = { Team: lazyPart(() => team().then((m) => m.Team)) };

export const HeaderTools = lazyPart(() =>
  import('@/features/activity/components/header-tools').then((m) => m.HeaderTools),
);

export const ActivityPage = lazyPart(() =>
  import('@/features/activity/components/activity-page').then((m) => m.ActivityPage),
);
