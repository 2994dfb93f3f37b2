import { describe, expect, it, vi } from 'vitest';
import { lazySchema } from './lazy-schema';

describe('lazySchema', () => {
  it('builds the schema when first asked for, once', () => {
    const build = vi.fn(() => ({ parse: (value: unknown) => value }));
    const schema = lazySchema(build);
    expect(build).not.toHaveBeenCalled();
    const first = schema();
    expect(schema()).toBe(first);
    expect(build).toHaveBeenCalledTimes(1);
  });
});
