import { createContext, use, useSyncExternalStore } from 'react';
import { type ClockSample, createOffsetEstimator, type OffsetEstimator } from './server-clock';

/**
 * One clock for the whole page: a single interval ticks once a second while anything listens,
 * and every countdown reads the same `now`. Tests pass a manual clock instead of sleeping.
 */
export interface Clock {
  now(): number;
  subscribe(listener: () => void): () => void;
  /** How far the browser's own clock is from the time this clock shows (ms; + = the computer is fast). */
  skewMs(): number;
}

/**
 * The servers' time as seen from this browser, one estimate per source (a source's `key`): each
 * backend has its own clock. Fed by the API client with every response's `Date` header.
 */
export interface ServerTime {
  sample(sourceKey: string, sample: ClockSample): void;
  /** Server minus browser, in ms; 0 until that source answered with a usable `Date`. */
  offsetMs(sourceKey: string): number;
  /** Called when an estimate moved. */
  onChange(listener: () => void): () => void;
}

export function createServerTime(): ServerTime {
  const estimators = new Map<string, OffsetEstimator>();
  const listeners = new Set<() => void>();
  return {
    sample(sourceKey, sample) {
      let estimator = estimators.get(sourceKey);
      if (!estimator) {
        estimator = createOffsetEstimator();
        estimators.set(sourceKey, estimator);
      }
      const before = estimator.offsetMs();
      if (estimator.add(sample) !== before) for (const listener of listeners) listener();
    },
    offsetMs: (sourceKey) => estimators.get(sourceKey)?.offsetMs() ?? 0,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The page's shared clock, showing the time of the server behind `sourceKey`. */
export function createServerClock(serverTime: ServerTime, sourceKey: string, periodMs = 1000) {
  const clock = createIntervalClock(periodMs, () => Date.now() + serverTime.offsetMs(sourceKey));
  // A new estimate shows at once, not at the next tick: a countdown must not flash "expired".
  serverTime.onChange(clock.refresh);
  return { ...clock, skewMs: () => 0 - serverTime.offsetMs(sourceKey) };
}

export function createIntervalClock(
  periodMs = 1000,
  read: () => number = Date.now,
): Clock & { refresh(): void } {
  const listeners = new Set<() => void>();
  let timer: ReturnType<typeof setInterval> | null = null;
  let current = read();
  const tick = () => {
    current = read();
    for (const listener of listeners) listener();
  };
  return {
    now: () => current,
    refresh: tick,
    skewMs: () => Date.now() - read(),
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
  setSkew(ms: number): void;
}

export function createManualClock(start: number): ManualClock {
  let current = start;
  let skew = 0;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };
  return {
    now: () => current,
    skewMs: () => skew,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setSkew(ms) {
      skew = ms;
      notify();
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
