import { describe, expect, it } from 'vitest';
import { urgency } from './status';

const minute = 60_000;
const hour = 60 * minute;

describe('urgency: colours only for what is truly urgent', () => {
  it('is danger in the last 5 minutes, whatever the life', () => {
    expect(urgency(4 * minute + 59_000, 10 * minute)).toBe('danger');
    expect(urgency(30_000, 24 * hour)).toBe('danger');
    expect(urgency(30_000)).toBe('danger');
  });

  it('is a warning under 10 minutes left', () => {
    expect(urgency(9 * minute, 15 * minute)).toBe('warning');
    expect(urgency(9 * minute)).toBe('warning');
    expect(urgency(10 * minute, 15 * minute)).toBe('calm');
  });

  it('is calm for a question due within the hour but asked a moment ago', () => {
    expect(urgency(50 * minute, hour)).toBe('calm');
    expect(urgency(59 * minute)).toBe('calm');
  });

  it('is a warning under 10 % of its life left', () => {
    // Asked a day ago: two hours left is under a tenth of its life.
    expect(urgency(2 * hour, 24 * hour)).toBe('warning');
    expect(urgency(3 * hour, 24 * hour)).toBe('calm');
  });

  it('ignores a life it cannot know', () => {
    expect(urgency(2 * hour, null)).toBe('calm');
    expect(urgency(2 * hour, 0)).toBe('calm');
    expect(urgency(2 * hour, -hour)).toBe('calm');
  });
});
