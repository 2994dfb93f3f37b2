import { describe, expect, it } from 'vitest';
import { queryFor, readParams, writeParams } from './range';

const local = (y: number, m: number, d: number, h = 0, min = 0) =>
  new Date(y, m - 1, d, h, min).getTime();
const iso = (at: number) => new Date(at).toISOString();

describe('the Insights range', () => {
  const now = local(2026, 3, 10, 14, 20) + 30_000;

  it('reads the URL, defaulting to the last 7 days and ignoring what it cannot use', () => {
    expect(readParams(new URLSearchParams(''))).toEqual({ range: '7d' });
    expect(readParams(new URLSearchParams('range=forever&tag=billing'))).toEqual({
      range: '7d',
      tag: 'billing',
    });
    // Days only for a custom range, and only as YYYY-MM-DD.
    expect(readParams(new URLSearchParams('range=30d&from=2026-01-01'))).toEqual({ range: '30d' });
    expect(
      readParams(new URLSearchParams('range=custom&from=2026-01-01&to=next+week&source=bilby')),
    ).toEqual({ range: 'custom', from: '2026-01-01', source: 'bilby' });
  });

  it('writes only what differs from the defaults', () => {
    expect(writeParams({ range: '7d' }).toString()).toBe('');
    expect(writeParams({ range: '24h', from: '2026-01-01', agent: 'bot' }).toString()).toBe(
      'range=24h&agent=bot',
    );
    expect(writeParams({ range: 'custom', from: '2026-01-01', to: '2026-01-07' }).toString()).toBe(
      'range=custom&from=2026-01-01&to=2026-01-07',
    );
  });

  it('asks for whole days from the reader’s midnight, today included', () => {
    expect(queryFor({ range: '7d', tag: 'x' }, now, 'Europe/Paris')).toEqual({
      from: iso(local(2026, 3, 4)),
      to: iso(local(2026, 3, 10, 14, 21)),
      tz: 'Europe/Paris',
      source: undefined,
      tag: 'x',
      agent: undefined,
    });
    expect(queryFor({ range: '30d' }, now, 'UTC')?.from).toBe(iso(local(2026, 2, 9)));
  });

  it('asks for the 24 whole hours to the end of this one', () => {
    const query = queryFor({ range: '24h' }, now, 'UTC');
    expect(query?.to).toBe(iso(Math.ceil(now / 3_600_000) * 3_600_000));
    expect(Date.parse(query?.to ?? '') - Date.parse(query?.from ?? '')).toBe(86_400_000);
  });

  it('asks for a custom range’s first day to the end of its last, or nothing', () => {
    expect(
      queryFor({ range: 'custom', from: '2026-01-01', to: '2026-01-07' }, now, 'UTC'),
    ).toMatchObject({ from: iso(local(2026, 1, 1)), to: iso(local(2026, 1, 8)) });
    expect(queryFor({ range: 'custom', from: '2026-01-01' }, now, 'UTC')).toBeNull();
    expect(
      queryFor({ range: 'custom', from: '2026-01-07', to: '2026-01-01' }, now, 'UTC'),
    ).toBeNull();
  });
});
