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

/** How far one `POST /__mock/clock` may move a tenant's clock, either way: a year. */
export const MAX_CLOCK_STEP_MS = 366 * 24 * 60 * 60 * 1000;
/** How far a tenant's clock may be from the computer's in all: ten years. */
export const MAX_CLOCK_OFFSET_MS = 10 * MAX_CLOCK_STEP_MS;

/** The offset after moving by `advanceMs`, or null when it would leave the bounds above. */
export function advancedOffset(offsetMs: number, advanceMs: number): number | null {
  const next = offsetMs + advanceMs;
  return Math.abs(next) <= MAX_CLOCK_OFFSET_MS ? next : null;
}
