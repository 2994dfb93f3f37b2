import { describe, expect, it } from 'vitest';
import { createServerClock, createServerTime, serverNow } from './clock';
import { type ClockSample, createOffsetEstimator } from './server-clock';

const T0 = Date.UTC(2026, 10, 30, 9, 0, 0);

/**
 * A response from a server whose clock is `offsetMs` ahead of the browser's: sent at browser time
 * `sentAt`, stamped `serverDelayMs` later (in server time, floored to the second as `Date` is),
 * received `roundTripMs` after sending.
 */
function response(
  offsetMs: number,
  sentAt: number,
  roundTripMs: number,
  serverDelayMs = roundTripMs / 2,
): ClockSample {
  const stampedAt = sentAt + serverDelayMs + offsetMs;
  return {
    sentAt,
    receivedAt: sentAt + roundTripMs,
    date: new Date(Math.floor(stampedAt / 1000) * 1000).toUTCString(),
  };
}

/** Deterministic jitter: round trips between 20 and 220 ms, the stamp anywhere inside them. */
function jittery(offsetMs: number, count: number, start = T0) {
  const samples: ClockSample[] = [];
  for (let i = 0; i < count; i++) {
    const roundTrip = 20 + ((i * 37) % 200);
    const where = ((i * 53) % 100) / 100;
    samples.push(response(offsetMs, start + i * 10_000 + i * 137, roundTrip, roundTrip * where));
  }
  return samples;
}

describe('createOffsetEstimator', () => {
  it('is 0 until a response with a Date header arrived, and ignores ones without', () => {
    const estimator = createOffsetEstimator();
    expect(estimator.offsetMs()).toBe(0);
    expect(estimator.uncertaintyMs()).toBeNull();
    estimator.add({ sentAt: T0, receivedAt: T0 + 50, date: null });
    estimator.add({ sentAt: T0, receivedAt: T0 + 50, date: 'not a date' });
    expect(estimator.offsetMs()).toBe(0);
    expect(estimator.uncertaintyMs()).toBeNull();
  });

  it('gets a 15-minute offset from one response to within its second', () => {
    const estimator = createOffsetEstimator();
    estimator.add(response(15 * 60_000, T0 + 300, 40));
    expect(Math.abs(estimator.offsetMs() - 15 * 60_000)).toBeLessThanOrEqual(600);
  });

  it('narrows well below the Date header’s one second over jittery responses', () => {
    for (const offset of [-15 * 60_000 + 123, 0, 7_654, 15 * 60_000 - 321]) {
      const estimator = createOffsetEstimator();
      for (const sample of jittery(offset, 12)) estimator.add(sample);
      expect(Math.abs(estimator.offsetMs() - offset)).toBeLessThan(150);
      expect(estimator.uncertaintyMs()).toBeLessThan(250);
    }
  });

  it('is not pulled by one slow response whose Date was stamped late', () => {
    const offset = 90_000;
    const estimator = createOffsetEstimator();
    for (const sample of jittery(offset, 6)) estimator.add(sample);
    const before = estimator.offsetMs();
    // 8 s in flight, stamped at the very end: a midpoint estimate would be 4 s off.
    estimator.add(response(offset, T0 + 200_000, 8_000, 8_000));
    expect(Math.abs(estimator.offsetMs() - before)).toBeLessThan(50);
    expect(Math.abs(estimator.offsetMs() - offset)).toBeLessThan(200);
  });

  it('skips round trips too slow to say anything', () => {
    const estimator = createOffsetEstimator({ maxRoundTripMs: 10_000 });
    estimator.add(response(60_000, T0, 30_000, 0));
    expect(estimator.uncertaintyMs()).toBeNull();
  });

  it('follows a jump (the laptop woke up) after a few agreeing responses, not one', () => {
    const estimator = createOffsetEstimator({ confirm: 3 });
    for (const sample of jittery(0, 8)) estimator.add(sample);
    expect(Math.abs(estimator.offsetMs())).toBeLessThan(150);
    // The browser's clock is now 15 minutes behind the server (it slept through an NTP fix).
    const later = T0 + 3_600_000;
    const woke = jittery(15 * 60_000, 3, later);
    estimator.add(woke[0] as ClockSample);
    expect(Math.abs(estimator.offsetMs())).toBeLessThan(150);
    estimator.add(woke[1] as ClockSample);
    expect(Math.abs(estimator.offsetMs())).toBeLessThan(150);
    estimator.add(woke[2] as ClockSample);
    expect(Math.abs(estimator.offsetMs() - 15 * 60_000)).toBeLessThan(600);
    // And it goes on narrowing around the new offset, not averaging in the old one.
    for (const sample of jittery(15 * 60_000, 10, later + 40_000)) estimator.add(sample);
    expect(Math.abs(estimator.offsetMs() - 15 * 60_000)).toBeLessThan(150);
  });

  it('treats a single stale Date (a cached answer) as noise', () => {
    const estimator = createOffsetEstimator();
    for (const sample of jittery(2_000, 8)) estimator.add(sample);
    estimator.add(response(2_000 - 3_600_000, T0 + 100_000, 30));
    expect(Math.abs(estimator.offsetMs() - 2_000)).toBeLessThan(150);
    for (const sample of jittery(2_000, 3, T0 + 110_000)) estimator.add(sample);
    expect(Math.abs(estimator.offsetMs() - 2_000)).toBeLessThan(600);
  });
});

describe('createServerClock', () => {
  it('keeps each source’s server time, and says how far the computer is off from the furthest', () => {
    const serverTime = createServerTime();
    const clock = createServerClock(serverTime);
    expect(clock.skewMs()).toBe(0);
    const sentAt = Date.now();
    serverTime.sample('reflexio', response(-2 * 60_000, sentAt, 0, 0));
    serverTime.sample('vertesia', response(10 * 60_000, sentAt, 0, 0));
    const unsubscribe = clock.subscribe(() => {});
    // The page's own time is the browser's; each server's is its own.
    expect(Math.abs(clock.now() - Date.now())).toBeLessThanOrEqual(1_100);
    expect(
      Math.abs(serverNow(clock, 'vertesia') - (clock.now() + 10 * 60_000)),
    ).toBeLessThanOrEqual(1_100);
    expect(Math.abs(serverNow(clock, 'reflexio') - (clock.now() - 2 * 60_000))).toBeLessThanOrEqual(
      1_100,
    );
    expect(clock.offsetMs('bilby')).toBe(0);
    unsubscribe();
    // The computer is 10 minutes slow against Vertesia, the furthest of the servers that answered.
    expect(Math.abs(clock.skewMs() + 10 * 60_000)).toBeLessThanOrEqual(1_100);
  });

  it('tells its listeners at once when an estimate moves, before the next tick', () => {
    const serverTime = createServerTime();
    const clock = createServerClock(serverTime, 60_000);
    const seen: number[] = [];
    const unsubscribe = clock.subscribe(() => seen.push(clock.offsetMs('vertesia')));
    serverTime.sample('vertesia', response(10 * 60_000, Date.now(), 0, 0));
    unsubscribe();
    expect(seen).toHaveLength(1);
    expect(Math.abs((seen[0] ?? 0) - 10 * 60_000)).toBeLessThanOrEqual(1_100);
  });
});
