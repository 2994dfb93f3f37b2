import type { Question, QuestionStatus } from '../api/schemas';
import { useOverdue } from '../hooks/use-overdue';
import { statusColors, statusLabels } from '../utils/status';
import classes from './badge.module.css';

/**
 * Colour plus the status word; a pending question past its expiry reads "Expired" at once. A row
 * that already knows whether its question is overdue passes `overdue` (one clock subscription per
 * row, not two).
 */
export function StatusBadge({
  question,
  overdue,
  size = 'sm',
}: {
  question: Question;
  overdue?: boolean;
  size?: 'sm' | 'lg';
}) {
  return overdue === undefined ? (
    <LiveStatusBadge question={question} size={size} />
  ) : (
    badge(overdue ? 'expired' : question.status, size)
  );
}

function LiveStatusBadge({ question, size }: { question: Question; size: 'sm' | 'lg' }) {
  const overdue = useOverdue(question);
  return badge(overdue ? 'expired' : question.status, size);
}

function badge(status: QuestionStatus, size: 'sm' | 'lg') {
  return (
    <span
      className={`status-badge ${classes.badge} ${classes.light} ${classes.upper} ${size === 'lg' ? classes.lg : ''}`}
      data-color={statusColors[status]}
    >
      {statusLabels[status]}
    </span>
  );
}
