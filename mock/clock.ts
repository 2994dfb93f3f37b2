export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export interface ManualClock extends Clock {
  advance(ms: number): void;
  set(ms: number): void;
}

export const systemClock: Clock = { now: () => Date.now() };

export function createManualClock(startMs: number): ManualClock {
  let current = startMs;
  return {
    now: () => current,
    advance(ms) {
      current += ms;
    },
    set(ms) {
      current = ms;
    },
  };
}
