import { lazyPart } from '@/components/load-boundary';
import type { AuditParts } from '@/config/shell-context';

// The audit trail's screens load when first shown, never with the first screen.
const history = () => import('@/features/activity/components/question-history');
const row = () => import('@/features/activity/components/acted-by');

export const auditParts: AuditParts = {
  History: lazyPart(() => history().then((m) => m.QuestionHistory)),
  ActedBy: lazyPart(() => row().then((m) => m.ActedBy)),
};

export const HeaderTools = lazyPart(() =>
  import('@/features/activity/components/header-tools').then((m) => m.HeaderTools),
);

export const ActivityPage = lazyPart(() =>
  import('@/features/activity/components/activity-page').then((m) => m.ActivityPage),
);
