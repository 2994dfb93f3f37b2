import { IconSelector } from '@tabler/icons-react';
import type { ChangeEvent } from 'react';
import { showBidiControls } from '@/lib/show-bidi';
import field from './field.module.css';

export interface PickerProps {
  label: string;
  /** A first, empty choice ("Any source"). */
  any?: string;
  values: ReadonlyArray<string | { value: string; label: string }>;
  value: string;
  onChange: (event: ChangeEvent<HTMLSelectElement>) => void;
  className?: string;
  testId?: string;
  disabled?: boolean;
}

/**
 * A native `<select>` drawn like the portal's inputs (Mantine's look, none of its code in the first
 * download): the phone's own picker on phones, type-ahead on desktops.
 */
export function Picker({
  label,
  any,
  values,
  value,
  onChange,
  className = '',
  testId,
  disabled,
}: PickerProps) {
  return (
    <div className={`${field.field} ${className}`} data-testid={testId}>
      <select
        className={`${field.input} ${field.select} ${field.withRight}`}
        aria-label={label}
        value={value}
        onChange={onChange}
        disabled={disabled}
      >
        {any !== undefined && <option value="">{any}</option>}
        {values.map((choice) =>
          typeof choice === 'string' ? (
            <option key={choice} value={choice}>
              {showBidiControls(choice)}
            </option>
          ) : (
            <option key={choice.value} value={choice.value}>
              {showBidiControls(choice.label)}
            </option>
          ),
        )}
      </select>
      <IconSelector size={16} aria-hidden className={`${field.section} ${field.right}`} />
    </div>
  );
}
