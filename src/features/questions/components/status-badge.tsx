import { Badge } from '@mantine/core';
import type { Question } from '../api/schemas';
import { useOverdue } from '../hooks/use-overdue';
import { statusColors, statusLabels } from '../utils/status';

/** Colour plus the status word; a pending question past its expiry reads "Expired" at once. */
export function StatusBadge({
  question,
  size = 'sm',
}: {
  question: Question;
  size?: 'sm' | 'md' | 'lg';
}) {
  const overdue = useOverdue(question);
  const status = overdue ? 'expired' : question.status;
  return (
    <Badge
      color={statusColors[status]}
      variant="light"
      size={size}
      radius="sm"
      className="status-badge"
    >
      {statusLabels[status]}
    </Badge>
  );
}
