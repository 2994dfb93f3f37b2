import type { Question } from '../../api/schemas';
import { useDesktopAlerts, usePendingBadge } from '../../hooks/use-desktop-alerts';

/**
 * The tab title and icon count what is pending ("(3) Questions"); desktop notifications, when on,
 * tell a reviewer who is away.
 */
export function PendingTitle({ pending }: { pending: Question[] | undefined }) {
  usePendingBadge(pending);
  useDesktopAlerts(pending);
  return null;
}
