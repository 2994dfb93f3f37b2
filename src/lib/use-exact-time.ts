import { useMemo } from 'react';
import { useAfterHydration } from './first-screen';
import { formatExact } from './format-time';

/**
 * "Nov 30, 2026, 9:21:19 AM EST" (formatExact) in the reviewer's time zone. The server writes it
 * in its own zone (it cannot know the reviewer's); the browser's render that takes that HTML over
 * writes the same, then the reviewer's, so a tooltip on a row the server drew does not stay in the
 * server's zone. Where both zones are one, nothing renders again.
 */
export function useExactTime(at: number): string {
  const local = useMemo(() => formatExact(at), [at]);
  return useAfterHydration(local, (view) =>
    view.timeZone === undefined ? local : formatExact(at, view.timeZone),
  );
}
