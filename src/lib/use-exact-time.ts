import { useMemo } from 'react';
import { useTakenOver } from './first-screen';
import { formatExact } from './format-time';

/**
 * "Nov 30, 2026, 9:21:19 AM EST" (formatExact) in the reviewer's time zone, for a tooltip; none
 * on a page the server draws (it cannot know the reviewer's zone) until the browser has taken that
 * page over: formatting it there would load the browser's locale data (20-24 ms) while a click
 * waits for the take-over.
 */
export function useExactTime(at: number): string | undefined {
  const taken = useTakenOver();
  return useMemo(() => (taken ? formatExact(at) : undefined), [taken, at]);
}
