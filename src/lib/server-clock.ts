/**
 * How far the server's clock is from the browser's, from the HTTP `Date` header of responses the
 * portal gets anyway.
 *
 * `Date` has one-second resolution and is written at some moment between the request leaving and
 * the answer arriving, so one response says: the offset (server minus browser) lies in
 * `[date − receivedAt, date + 1 s − sentAt]`. A slow round trip gives a wide interval, a fast one
 * a narrow one; intersecting the intervals of several responses narrows the offset well below a
 * second, and a slow response barely moves it (its wide interval contains the narrow ones). The
 * estimate is the middle of the intersection: with one sample that is NTP's midpoint.
 *
 * Intervals that do not intersect mean one of the clocks jumped (a laptop waking up, a VM
 * resumed, NTP correcting the browser's clock). One odd answer (a cached response, a proxy's
 * clock) is not trusted on its own: the newest samples take over once `confirm` of them agree
 * with each other and not with the old ones.
 */

export interface ClockSample {
  /** Browser time (ms) when the request was sent. */
  sentAt: number;
  /** Browser time (ms) when the response's headers arrived. */
  receivedAt: number;
  /** The response's `Date` header, if it had one readable (cross-origin needs Expose-Headers). */
  date: string | null;
}

interface Bounds {
  lo: number;
  hi: number;
}

export interface OffsetEstimatorOptions {
  /** Samples kept; older ones age out so slow drift cannot lock the estimate. */
  window?: number;
  /** Round trips slower than this say too little to use. */
  maxRoundTripMs?: number;
  /** How many agreeing samples it takes for a jump to replace the old offset. */
  confirm?: number;
  /** Allowance for servers whose `Date` lags the real second (cached date strings). */
  slackMs?: number;
}

export interface OffsetEstimator {
  /** Adds one response; returns the current estimate. */
  add(sample: ClockSample): number;
  /** Server time minus browser time, in ms; 0 until a usable response arrived. */
  offsetMs(): number;
  /** How precise the estimate is (± ms), or null without any sample. */
  uncertaintyMs(): number | null;
}

function boundsOf(sample: ClockSample, slackMs: number): Bounds | null {
  if (!sample.date) return null;
  const date = Date.parse(sample.date);
  if (Number.isNaN(date)) return null;
  return { lo: date - sample.receivedAt - slackMs, hi: date + 1000 - sample.sentAt + slackMs };
}

/** Intersection of the newest samples going back until one disagrees; returns it and how many. */
function newestAgreeing(samples: Bounds[]): { bounds: Bounds; count: number } {
  let lo = Number.NEGATIVE_INFINITY;
  let hi = Number.POSITIVE_INFINITY;
  let count = 0;
  for (let i = samples.length - 1; i >= 0; i--) {
    const sample = samples[i] as Bounds;
    const nextLo = Math.max(lo, sample.lo);
    const nextHi = Math.min(hi, sample.hi);
    if (nextLo > nextHi) break;
    lo = nextLo;
    hi = nextHi;
    count++;
  }
  return { bounds: { lo, hi }, count };
}

export function createOffsetEstimator(options: OffsetEstimatorOptions = {}): OffsetEstimator {
  const windowSize = options.window ?? 12;
  const maxRoundTripMs = options.maxRoundTripMs ?? 10_000;
  const confirm = options.confirm ?? 3;
  const slackMs = options.slackMs ?? 50;
  let samples: Bounds[] = [];
  let estimate: Bounds | null = null;

  return {
    add(sample) {
      const roundTrip = sample.receivedAt - sample.sentAt;
      const bounds =
        roundTrip >= 0 && roundTrip <= maxRoundTripMs ? boundsOf(sample, slackMs) : null;
      if (!bounds) return this.offsetMs();
      samples.push(bounds);
      if (samples.length > windowSize) samples = samples.slice(-windowSize);
      const { bounds: agreed, count } = newestAgreeing(samples);
      if (count === samples.length || count >= confirm) {
        // Everything kept agrees, or a jump has been confirmed: the disagreeing past is dropped.
        samples = samples.slice(-count);
        estimate = agreed;
      }
      // Otherwise the newest one or two disagree with the rest: keep the old estimate for now.
      return this.offsetMs();
    },
    offsetMs: () => (estimate ? Math.round((estimate.lo + estimate.hi) / 2) : 0),
    uncertaintyMs: () => (estimate ? Math.round((estimate.hi - estimate.lo) / 2) : null),
  };
}
