import { createContext, use, useSyncExternalStore } from 'react';
import { type ClockSample, createOffsetEstimator, type OffsetEstimator } from './server-clock';

/**
 * One clock for the whole page: a single interval ticks once a second while anything listens,
 * and everything reads the same tick. `now()` is the page's own time (the browser's clock at the
 * tick); each source's server has its own clock, `now() + offsetMs(sourceKey)`, and a question's
 * countdown reads its own server's. Tests pass a manual clock instead of sleeping.
 */
export interface Clock {
  now(): number;
  /** The time at the server behind `sourceKey` minus `now()` (ms); 0 while unknown. */
  offsetMs(sourceKey: string): number;
  subscribe(listener: () => void): () => void;
  /**
   * How far the browser's own clock is from the servers' (ms; + = the computer is fast): the
   * largest difference among the sources that answered, 0 before any did.
   */
  skewMs(): number;
  /**
   * The server's render of the first screen (src/app/entry-server.tsx): its time and each
   * source's clock as it read them. What the browser renders while it takes that HTML over
   * (hydration, in parts) reads these, so it says what the HTML says (useSyncExternalStore's
   * server snapshots below).
   */
  firstScreen?: { at: number; offsets: Readonly<Record<string, number>> };
}

/** The time at the server behind `sourceKey`, at the clock's current tick. */
export function serverNow(clock: Clock, sourceKey: string): number {
  return clock.now() + clock.offsetMs(sourceKey);
}

/** `clock.now()`, or the server's reading while its first screen is being taken over. */
export function firstScreenNow(clock: Clock): number {
  return clock.firstScreen?.at ?? clock.now();
}

/** `serverNow`, or the server's reading while its first screen is being taken over. */
export function firstScreenServerNow(clock: Clock, sourceKey: string): number {
  const first = clock.firstScreen;
  return first ? first.at + (first.offsets[sourceKey] ?? 0) : serverNow(clock, sourceKey);
}

/**
 * The servers' time as seen from this browser, one estimate per source (the configured source's
 * `id`, which each question carries): each backend has its own clock. Fed by the API clients with
 * every response's `Date` header.
 */
export interface ServerTime {
  sample(sourceKey: string, sample: ClockSample): void;
  /** Server minus browser, in ms; 0 until that source answered with a usable `Date`. */
  offsetMs(sourceKey: string): number;
  /** The offset furthest from 0 among the sources that answered; 0 before any did. */
  largestOffsetMs(): number;
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
    largestOffsetMs() {
      let largest = 0;
      for (const estimator of estimators.values()) {
        const offset = estimator.offsetMs();
        if (Math.abs(offset) > Math.abs(largest)) largest = offset;
      }
      return largest;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The page's shared clock, with each source's server time from `serverTime`. */
export function createServerClock(
  serverTime: ServerTime,
  periodMs = 1000,
  /** The server's render of the first screen, when the page holds one (see Clock.firstScreen). */
  firstScreen?: Clock['firstScreen'],
): Clock {
  const clock = createIntervalClock(periodMs);
  // A new estimate shows at once, not at the next tick: a countdown must not flash "expired".
  serverTime.onChange(clock.refresh);
  return {
    ...clock,
    offsetMs: serverTime.offsetMs,
    skewMs: () => 0 - serverTime.largestOffsetMs(),
    ...(firstScreen ? { firstScreen } : {}),
  };
}

/** The browser's own clock, ticking every `periodMs` while anything listens. */
export function createIntervalClock(periodMs = 1000): Clock & { refresh(): void } {
  const read = Date.now;
  const listeners = new Set<() => void>();
  let timer: ReturnType<typeof setInterval> | null = null;
  let current = read();
  const tick = () => {
    current = read();
    for (const listener of listeners) listener();
  };
  return {
    now: () => current,
    offsetMs: () => 0,
    refresh: tick,
    skewMs: () => 0,
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
  /** The server behind `sourceKey` runs `ms` ahead of the page (negative: behind). */
  setOffset(sourceKey: string, ms: number): void;
}

export function createManualClock(start: number): ManualClock {
  let current = start;
  let skew = 0;
  const offsets = new Map<string, number>();
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };
  return {
    now: () => current,
    offsetMs: (sourceKey) => offsets.get(sourceKey) ?? 0,
    skewMs: () => skew,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setSkew(ms) {
      skew = ms;
      notify();
    },
    setOffset(sourceKey, ms) {
      offsets.set(sourceKey, ms);
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
  return useClockReading((now) => Math.floor(now / granularityMs) * granularityMs);
}

/**
 * What `reading` makes of the shared `now` (the server's reading while its first screen is taken
 * over), re-rendering only when that changes: "Updated just now" for its first two seconds.
 */
export function useClockReading<T extends string | number | boolean | null>(
  reading: (now: number) => T,
): T {
  const clock = useClock();
  return useSyncExternalStore(
    clock.subscribe,
    () => reading(clock.now()),
    () => reading(firstScreenNow(clock)),
  );
}

/**
 * The time at the server behind `sourceKey` (the page's own without one), in steps of
 * `granularityMs`, re-rendering only when the step changes or that server's estimate moves it. While
 * the server's first screen is taken over, its reading and each source's clock as it read them
 * (Clock.firstScreen): the same step the HTML shows, whatever the browser has learnt since.
 */
export function useSourceNow(sourceKey: string | undefined, granularityMs: number): number {
  const clock = useClock();
  const step = (ms: number) => Math.floor(ms / granularityMs) * granularityMs;
  const read = () => step(sourceKey === undefined ? clock.now() : serverNow(clock, sourceKey));
  const first = () =>
    step(sourceKey === undefined ? firstScreenNow(clock) : firstScreenServerNow(clock, sourceKey));
  return useSyncExternalStore(clock.subscribe, read, first);
}

/**
 * True once `at` has passed, by the clock of the server behind `sourceKey` (the page's own without
 * one); re-renders only when that flips, not on every tick.
 */
export function useHasPassed(at: number | null, sourceKey?: string): boolean {
  const clock = useClock();
  const read = () =>
    at !== null && (sourceKey === undefined ? clock.now() : serverNow(clock, sourceKey)) >= at;
  const first = () =>
    at !== null &&
    (sourceKey === undefined ? firstScreenNow(clock) : firstScreenServerNow(clock, sourceKey)) >=
      at;
  return useSyncExternalStore(clock.subscribe, read, first);
}
