import type { Density } from '../../hooks/use-density';
import { SegmentedRadios } from './segmented-radios';

const choices: Array<{ value: Density; label: string }> = [
  { value: 'comfortable', label: 'Comfortable' },
  { value: 'compact', label: 'Compact' },
];

/** Comfortable or compact rows, drawn like the status filter. */
export function DensitySwitch({
  value,
  onChange,
}: {
  value: Density;
  onChange: (density: Density) => void;
}) {
  return (
    <SegmentedRadios label="Density" choices={choices} value={value} onChange={onChange} small />
  );
}
