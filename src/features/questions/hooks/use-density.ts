import { useLocalStorage } from '@mantine/hooks';

export type Density = 'comfortable' | 'compact';

/** How tall the list's rows are: comfortable (two or three lines) or compact (one line). Remembered in this browser. */
export function useDensity() {
  return useLocalStorage<Density>({
    key: 'qi:density',
    defaultValue: 'comfortable',
    getInitialValueInEffect: false,
    serialize: (value) => value,
    deserialize: (value) => (value === 'compact' ? 'compact' : 'comfortable'),
  });
}
