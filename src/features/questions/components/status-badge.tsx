import type { Question } from '../api/schemas';
import { useOverdue } from '../hooks/use-overdue';
import { statusColors, statusLabels } from '../utils/status';
import classes from './badge.module.css';

/** Colour plus the status word; a pending question past its expiry reads "Expired" at once. */
export function StatusBadge({ question, size = 'sm' }: { question: Question; size?: 'sm' | 'lg' }) {
  const overdue = useOverdue(question);
  const status = overdue ? 'expired' : question.status;
  return (
    <span
      className={`status-badge ${classes.badge} ${classes.light} ${classes.upper} ${size === 'lg' ? classes.lg : ''}`}
      data-color={statusColors[status]}
    >
      {statusLabels[status]}
    </span>
  );
}
