import { describe, expect, it } from 'vitest';
import {
  describeSeconds,
  formatDuration,
  formatExact,
  formatRelative,
  relativeText,
} from './format-time';

describe('formatDuration', () => {
  it.each([
    [0, '0s'],
    [999, '0s'],
    [42_000, '42s'],
    [252_000, '4m 12s'],
    [60_000, '1m 00s'],
    [3_600_000, '1h 00m'],
    [3 * 3_600_000 + 5 * 60_000 + 59_000, '3h 05m'],
    [2 * 86_400_000 + 4 * 3_600_000, '2d 4h'],
    [-5000, '0s'],
  ])('%i ms reads %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe('formatRelative', () => {
  const now = Date.parse('2026-11-30T12:00:00Z');
  it.each([
    [now - 10_000, 'just now'],
    [now - 5 * 60_000, '5 minutes ago'],
    [now - 3 * 3_600_000, '3 hours ago'],
    [now - 86_400_000, 'yesterday'],
    [now + 2 * 3_600_000, 'in 2 hours'],
  ])('%i reads %s', (at, text) => {
    expect(formatRelative(at, now)).toBe(text);
  });
});

describe('describeSeconds', () => {
  it.each([
    [2_592_000, '30 days'],
    [3600, '1 hour'],
    [90, '90 seconds'],
    [120, '2 minutes'],
  ])('%i seconds is %s', (seconds, text) => {
    expect(describeSeconds(seconds)).toBe(text);
  });
});

describe('formatExact', () => {
  it('writes the time in the reviewer’s zone, as the browser’s own format does', () => {
    const at = Date.UTC(2026, 10, 30, 9, 21, 19);
    const intl = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'long' });
    expect(formatExact(at)).toBe(intl.format(new Date(at)));
  });
});

describe('relativeText', () => {
  const intl = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  const counts = [
    ...Array.from({ length: 2100 }, (_, index) => index + 1),
    9_999,
    10_000,
    123_456,
    1_000_000,
    27_397_260,
  ].flatMap((count) => [count, -count]);

  it.each(['minute', 'hour', 'day', 'month', 'year'] as const)(
    'says what Intl.RelativeTimeFormat says for every count of a %s',
    (unit) => {
      const differ = counts.filter(
        (count) => relativeText(count, unit) !== intl.format(count, unit),
      );
      expect(differ).toEqual([]);
    },
  );
});
