import { useCallback } from 'react';
import { PREFERENCE_COOKIES, rememberPreference, useAfterHydration } from '@/lib/first-screen';
import { useStoredValue } from '@/lib/stored-value';

export type Density = 'comfortable' | 'compact';

const stored = {
  parse: (raw: string | null): Density => (raw === 'compact' ? 'compact' : 'comfortable'),
  serialize: (value: Density) => value,
  serverValue: 'comfortable' as Density,
};

/**
 * How tall the list's rows are: comfortable (two or three lines) or compact (one line). Remembered
 * in this browser, and in a cookie for the server's render of the first screen.
 */
export function useDensity() {
  const [remembered, remember] = useStoredValue('qi:density', stored);
  const density = useAfterHydration(remembered, (view) => view.density);
  const setDensity = useCallback(
    (next: Density) => {
      remember(next);
      rememberPreference(PREFERENCE_COOKIES.density, next);
    },
    [remember],
  );
  return [density, setDensity] as const;
}
