import { describe, expect, it } from 'vitest';
import { jsonDepth, jsonText } from './bounded-json';

function nested(levels: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

describe('jsonText', () => {
  it('matches JSON.stringify for ordinary values, indented or not', () => {
    const value = { a: [1, 'two', null, true, { b: [] }], c: {}, 'd"e': 'x\ny', f: undefined };
    expect(jsonText(value).text).toBe(JSON.stringify(value));
    expect(jsonText(value, { indent: 2 }).text).toBe(JSON.stringify(value, null, 2));
    expect(jsonText(value).cut).toBeNull();
  });

  it('shows 10 levels of a 10,000-level value and says how many it left out', () => {
    const value = nested(10_000);
    expect(() => JSON.stringify(value, null, 2)).toThrow();
    const { text, cut } = jsonText(value, { indent: 2 });
    expect(cut).toBe('depth');
    expect(text).toContain('{ … 9,990 more levels }');
    expect(text.split('"a"')).toHaveLength(11);
  });

  it('stops at maxChars', () => {
    const { text, cut } = jsonText({ big: 'x'.repeat(1_000_000) }, { maxChars: 500 });
    expect(cut).toBe('length');
    expect(text).toHaveLength(500);
  });

  it('counts depth without recursion, within a budget', () => {
    expect(jsonDepth(nested(50_000))).toEqual({ depth: 50_000, exact: true });
    expect(jsonDepth({ a: [{}] })).toEqual({ depth: 3, exact: true });
    expect(jsonDepth('x')).toEqual({ depth: 0, exact: true });
    expect(jsonDepth(nested(1000), 10)).toEqual({ depth: 11, exact: false });
  });
});

describe('jsonText on megabytes', () => {
  it('cuts a long string before escaping it', () => {
    const stringify = JSON.stringify;
    let longest = 0;
    const spy = (value: unknown, ...rest: []) => {
      if (typeof value === 'string') longest = Math.max(longest, value.length);
      return stringify(value, ...rest);
    };
    JSON.stringify = spy as typeof JSON.stringify;
    try {
      const { text, cut } = jsonText({ answer: 'x'.repeat(1_000_000) }, { maxChars: 100 });
      expect(cut).toBe('length');
      expect(text).toBe(`{"answer":"${'x'.repeat(89)}`);
    } finally {
      JSON.stringify = stringify;
    }
    expect(longest).toBeLessThanOrEqual(101);
  });
});
