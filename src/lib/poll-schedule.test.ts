import { describe, expect, it } from 'vitest';
import { nextPollDelay } from './poll-schedule';

describe('nextPollDelay', () => {
  const base = { baseMs: 10_000, maxMs: 60_000, typing: false };

  it('polls at the configured interval while answers change', () => {
    expect(nextPollDelay({ ...base, unchangedPolls: 0 })).toBe(10_000);
    expect(nextPollDelay({ ...base, unchangedPolls: 2 })).toBe(10_000);
  });

  it('slows down after several unchanged polls, up to the maximum', () => {
    const delays = [3, 4, 5, 6, 20].map((unchangedPolls) =>
      nextPollDelay({ ...base, unchangedPolls }),
    );
    expect(delays).toEqual([20_000, 40_000, 60_000, 60_000, 60_000]);
  });

  it('stays at the configured interval while the reviewer types', () => {
    expect(nextPollDelay({ ...base, unchangedPolls: 10, typing: true })).toBe(10_000);
  });

  it('never polls faster than configured when the maximum is below it', () => {
    expect(
      nextPollDelay({ baseMs: 120_000, maxMs: 60_000, unchangedPolls: 9, typing: false }),
    ).toBe(120_000);
  });
});
