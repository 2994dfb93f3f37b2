import { useId } from 'react';
import type { StatusCounts } from '../../hooks/use-inbox-data';
import { type StatusFilter as Status, statusFilters } from '../../utils/filters';
import { filterMeta } from '../../utils/question-policy';
import classes from './status-filter.module.css';

function countLabel(count: StatusCounts[Status]): string {
  if (!count) return '';
  const total = `${count.count}${count.atLeast ? '+' : ''}`;
  return count.shown === undefined ? ` ${total}` : ` ${count.shown} of ${total}`;
}

/**
 * The status filter: native radio buttons drawn as a segmented control. Arrow keys move between
 * statuses as in any radio group; no measuring, no animation, nothing to load.
 */
export function StatusFilter({
  value,
  counts,
  onChange,
}: {
  value: Status;
  counts: StatusCounts;
  onChange: (status: Status) => void;
}) {
  const name = useId();
  return (
    <div role="radiogroup" aria-label="Status" className={classes.group}>
      {statusFilters.map((status) => (
        <label key={status} className={classes.segment} data-active={status === value || undefined}>
          <input
            type="radio"
            name={name}
            value={status}
            checked={status === value}
            onChange={() => onChange(status)}
            // Hidden but focusable: the label is what you see and click.
            className="visually-hidden"
          />
          {filterMeta(status).label}
          {countLabel(counts[status])}
        </label>
      ))}
    </div>
  );
}
