import { describe, expect, it } from 'vitest';
import { describeSeconds, formatDuration, formatExact, formatRelative } from './format-time';

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
  const at = Date.UTC(2026, 10, 30, 9, 21, 19);

  it('writes the time in the zone asked for (the server’s, while its HTML is taken over)', () => {
    expect(formatExact(at, 'UTC')).toMatch(/^Nov 30, 2026, 9:21:19\sAM UTC$/);
    expect(formatExact(at, 'Asia/Kathmandu')).toMatch(/^Nov 30, 2026, 3:06:19\sPM GMT\+5:45$/);
  });

  it('writes a zone this browser does not know in its own', () => {
    expect(formatExact(at, 'Not/AZone')).toBe(formatExact(at));
  });
});
