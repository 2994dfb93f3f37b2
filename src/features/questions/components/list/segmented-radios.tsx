import { useId } from 'react';
import classes from './status-filter.module.css';

/**
 * Native radio buttons drawn as a segmented control (the status filter, the density switch).
 * Arrow keys move between choices as in any radio group; no measuring, nothing to load.
 */
export function SegmentedRadios<T extends string>({
  label,
  choices,
  value,
  onChange,
  small = false,
}: {
  label: string;
  choices: Array<{ value: T; label: string }>;
  value: T;
  onChange: (value: T) => void;
  small?: boolean;
}) {
  const name = useId();
  return (
    <div
      role="radiogroup"
      aria-label={label}
      className={small ? `${classes.group} ${classes.small}` : classes.group}
    >
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
            // Hidden but focusable: the label is what you see and click.
            className="visually-hidden"
          />
          {choice.label}
        </label>
      ))}
    </div>
  );
}
