import { lazyPart } from '@/components/load-boundary';
import type { AuditParts, SnippetParts, TeamParts } from '@/config/shell-context';
import { whenIdleAfterFirstScreen } from '@/lib/idle';

// What is on a row or in the header besides the list waits until the list is on screen and the
// browser is idle: asked for as the rows rendered, these parts raced the list's first paint.
const listShown = new Promise<void>((resolve) => {
  whenIdleAfterFirstScreen(resolve);
});

// The audit trail's screens load when first shown, never with the first screen.
const history = () => import('@/features/activity/components/question-history');
const row = () => listShown.then(() => import('@/features/activity/components/acted-by'));
// Presence and claims: none of their code is in the first download. It is asked for once the first
// rows are on screen, or, above the list and in the drawer, when those first render after that.
const team = () => listShown.then(() => import('@/features/presence/parts'));

export const auditParts: AuditParts = {
  History: lazyPart(() => history().then((m) => m.QuestionHistory), 'History'),
  // A closed row says who acted; a pending one who is on it (one part per row, so a row costs the
  // first screen nothing more for presence).
  ActedBy: lazyPart(
    () => Promise.all([row(), team()]).then(([a, t]) => t.withRowTeam(a.ActedBy)),
    'ActedBy',
  ),
};

export const teamParts: TeamParts = { Team: lazyPart(() => team().then((m) => m.Team), 'Team') };

// The team's snippets in the answer box: asked for with the other parts after the first screen
// (its dialogs come later still, when first opened).
export const snippetParts: SnippetParts = {
  Snippets: lazyPart(
    () =>
      listShown
        .then(() => import('@/features/snippets/answer-snippets'))
        .then((m) => m.AnswerSnippets),
    'Snippets',
  ),
};

export const HeaderTools = lazyPart(
  () =>
    listShown
      .then(() => import('@/features/activity/components/header-tools'))
      .then((m) => m.HeaderTools),
  'HeaderTools',
);

export const ActivityPage = lazyPart(() =>
  import('@/features/activity/components/activity-page').then((m) => m.ActivityPage),
);

// The Insights page and its charts (@mantine/charts, Recharts): downloaded only when it is opened.
export const InsightsPage = lazyPart(() =>
  import('@/features/insights/components/insights-page').then((m) => m.InsightsPage),
);

// Notifications when the inbox is closed (Web Push): the menu beside the bell, after the list.
export const PushMenu = lazyPart(
  () =>
    listShown.then(() => import('@/features/push/components/push-menu')).then((m) => m.PushMenu),
  'PushMenu',
);
