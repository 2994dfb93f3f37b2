import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { shortClassNames } from './css-names';

describe('shortClassNames', () => {
  const root = path.resolve('/project');
  afterEach(() => vi.unstubAllEnvs());

  it('names a class the same on every machine, from its file relative to the root', () => {
    vi.stubEnv('NODE_ENV', 'production');
    const here = shortClassNames(root)('shell', path.join(root, 'src/app/app-layout.module.css'));
    const there = shortClassNames(path.resolve('/elsewhere/checkout'))(
      'shell',
      path.join(path.resolve('/elsewhere/checkout'), 'src/app/app-layout.module.css?used'),
    );
    expect(here).toBe(there);
    expect(here).toMatch(/^q[\w-]{5}$/);
    // The dev server's names start with the class's own.
    vi.stubEnv('NODE_ENV', 'development');
    expect(shortClassNames(root)('shell', path.join(root, 'src/x.module.css'))).toMatch(
      /^shell_q[\w-]{5}$/,
    );
  });

  it('gives other classes and other files other names, and one class its name again', () => {
    const name = shortClassNames(root);
    const file = path.join(root, 'src/a.module.css');
    const names = new Set([
      name('shell', file),
      name('header', file),
      name('shell', path.join(root, 'src/b.module.css')),
    ]);
    expect(names.size).toBe(3);
    expect(name('shell', file)).toBe(name('shell', file));
  });

  it('stops the build when two classes would share a name', () => {
    const name = shortClassNames(root);
    const file = path.join(root, 'src/a.module.css');
    // 200,000 classes in 2^30 names: about 19 pairs hash alike, so one is met.
    expect(() => {
      for (let i = 0; i < 200_000; i++) name(`c${i}`, file);
    }).toThrow(/hash alike/);
  });
});
