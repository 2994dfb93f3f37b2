import type { Question, QuestionStatus } from '../../api/schemas';
import { statusColors, statusLabels } from '../../utils/status';
import classes from './badge.module.css';

/**
 * Colour plus the status word; a pending question past its expiry (`overdue`, from the caller's
 * `useOverdue`) reads "Expired" at once.
 */
export function StatusBadge({
  question,
  overdue,
  size = 'sm',
}: {
  question: Question;
  overdue: boolean;
  size?: 'sm' | 'lg';
}) {
  const status: QuestionStatus = overdue ? 'expired' : question.status;
  return (
    <span
      className={`status-badge ${classes.badge} ${classes.light} ${classes.upper} ${size === 'lg' ? classes.lg : ''}`}
      data-color={statusColors[status]}
    >
      {statusLabels[status]}
    </span>
  );
}
