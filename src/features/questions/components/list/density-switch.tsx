import { useId } from 'react';
import type { Density } from '../../hooks/use-density';
import classes from './status-filter.module.css';

const choices: Array<{ value: Density; label: string }> = [
  { value: 'comfortable', label: 'Comfortable' },
  { value: 'compact', label: 'Compact' },
];

/** Comfortable or compact rows: native radio buttons drawn like the status filter. */
export function DensitySwitch({
  value,
  onChange,
}: {
  value: Density;
  onChange: (density: Density) => void;
}) {
  const name = useId();
  return (
    <div role="radiogroup" aria-label="Density" className={`${classes.group} ${classes.small}`}>
      {choices.map((choice) => (
        <label
          key={choice.value}
          className={classes.segment}
          data-active={choice.value === value || undefined}
        >
          <input
            type="radio"
            name={name}
            value={choice.value}
            checked={choice.value === value}
            onChange={() => onChange(choice.value)}
            className="visually-hidden"
          />
          {choice.label}
        </label>
      ))}
    </div>
  );
}
