import { describe, expect, it } from 'vitest';
import { capDepth, jsonDepth, jsonText } from './bounded-json';

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

describe('capDepth', () => {
  it('keeps a value within the depth as the same object', () => {
    const value = { a: [1, { b: 'c' }] };
    expect(capDepth(value, 3)).toBe(value);
  });

  it('cuts a value 10,000 levels deep at 256, its marker standing for the levels left out', () => {
    let deep: Record<string, unknown> = { leaf: true };
    for (let level = 0; level < 10_000; level++) deep = { deep };
    const capped = capDepth(deep);
    // 256 levels of objects, the last a marker; read back, the depth is the real one.
    expect(JSON.stringify(capped).split('{').length - 1).toBe(256);
    expect(jsonDepth(capped).depth).toBe(10_001);
    expect(jsonText(capped, { maxDepth: 10 }).text).toContain('{ … 9,991 more levels }');
    expect(jsonText(capped, { maxDepth: 200 }).text).toContain('{ … 9,801 more levels }');
    // What is left structured-clones and stringifies without overflowing the stack.
    expect(() => structuredClone(capped)).not.toThrow();
  });
});
