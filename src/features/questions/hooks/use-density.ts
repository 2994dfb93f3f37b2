import { useLocalStorage } from '@mantine/hooks';
import { useCallback } from 'react';
import { PREFERENCE_COOKIES, rememberPreference, useAfterHydration } from '@/lib/first-screen';

export type Density = 'comfortable' | 'compact';

/**
 * How tall the list's rows are: comfortable (two or three lines) or compact (one line). Remembered
 * in this browser, and in a cookie for the server's render of the first screen.
 */
export function useDensity() {
  const [stored, setStored] = useLocalStorage<Density>({
    key: 'qi:density',
    defaultValue: 'comfortable',
    getInitialValueInEffect: false,
    serialize: (value) => value,
    deserialize: (value) => (value === 'compact' ? 'compact' : 'comfortable'),
  });
  const density = useAfterHydration(stored, (view) => view.density);
  const setDensity = useCallback(
    (next: Density) => {
      setStored(next);
      rememberPreference(PREFERENCE_COOKIES.density, next);
    },
    [setStored],
  );
  return [density, setDensity] as const;
}
