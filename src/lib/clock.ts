import { createContext, use, useSyncExternalStore } from 'react';

/**
 * One clock for the whole page: a single interval ticks once a second while anything listens,
 * and every countdown reads the same `now`. Tests pass a manual clock instead of sleeping.
 */
export interface Clock {
  now(): number;
  subscribe(listener: () => void): () => void;
}

export function createIntervalClock(periodMs = 1000, read: () => number = Date.now): Clock {
  const listeners = new Set<() => void>();
  let timer: ReturnType<typeof setInterval> | null = null;
  let current = read();
  const tick = () => {
    current = read();
    for (const listener of listeners) listener();
  };
  return {
    now: () => current,
    subscribe(listener) {
      listeners.add(listener);
      if (timer === null) {
        current = read();
        timer = setInterval(tick, periodMs);
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && timer !== null) {
          clearInterval(timer);
          timer = null;
        }
      };
    },
  };
}

export interface ManualClock extends Clock {
  set(ms: number): void;
  advance(ms: number): void;
}

export function createManualClock(start: number): ManualClock {
  let current = start;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };
  return {
    now: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(ms) {
      current = ms;
      notify();
    },
    advance(ms) {
      current += ms;
      notify();
    },
  };
}

export const ClockContext = createContext<Clock>(createIntervalClock());

export function useClock(): Clock {
  return use(ClockContext);
}

/**
 * The shared `now` (ticking once a second), re-rendering at most once per `granularityMs`. "5 minutes ago"
 * needs far fewer renders than a ticking countdown, and 500 rows add up.
 */
export function useNow(granularityMs = 1): number {
  const clock = useClock();
  const read = () => Math.floor(clock.now() / granularityMs) * granularityMs;
  return useSyncExternalStore(clock.subscribe, read, read);
}

/** True once `at` has passed; re-renders only when that flips, not on every tick. */
export function useHasPassed(at: number | null): boolean {
  const clock = useClock();
  const read = () => at !== null && clock.now() >= at;
  return useSyncExternalStore(clock.subscribe, read, read);
}
