import type { StatusCounts } from '../../hooks/use-inbox-data';
import { type StatusFilter as Status, statusFilters } from '../../utils/filters';
import { filterMeta } from '../../utils/question-policy';
import { SegmentedRadios } from './segmented-radios';

function countLabel(count: StatusCounts[Status]): string {
  if (!count) return '';
  const total = `${count.count}${count.atLeast ? '+' : ''}`;
  return count.shown === undefined ? ` ${total}` : ` ${count.shown} of ${total}`;
}

/** The status filter, with counts ("Pending 20", "Pending 2 of 20" under a tag or search filter). */
export function StatusFilter({
  value,
  counts,
  onChange,
}: {
  value: Status;
  counts: StatusCounts;
  onChange: (status: Status) => void;
}) {
  return (
    <SegmentedRadios
      label="Status"
      choices={statusFilters.map((status) => ({
        value: status,
        label: filterMeta(status).label + countLabel(counts[status]),
      }))}
      value={value}
      onChange={onChange}
    />
  );
}
