import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { barrelExports, namesImported, specifiers } from './first-screen-chunk';

const mantineCore = fileURLToPath(
  new URL('../node_modules/@mantine/core/esm/index.mjs', import.meta.url),
);

describe('the walk through a library’s barrel file', () => {
  it('reads a list of names, with their aliases and type-only ones', () => {
    expect(specifiers(' A, B as C,\n type D ,')).toEqual([
      ['A', 'A'],
      ['B', 'C'],
      ['D', 'D'],
    ]);
  });

  it('finds the names a module imports from a package, and none from another', () => {
    const code = [
      'import { useState } from "react";',
      'import { ActionIcon, Popover as P } from "@mantine/core";',
      'import { Switch } from "@mantine/core";',
    ].join('\n');
    expect(namesImported(code, '@mantine/core')).toEqual(['ActionIcon', 'Popover', 'Switch']);
    expect(namesImported(code, '@mantine/hooks')).toEqual([]);
  });

  it('says when a module takes the whole package (the walk then follows every file)', () => {
    expect(namesImported('import * as M from "@mantine/core";', '@mantine/core')).toBeNull();
    expect(namesImported('import M, { Box } from "@mantine/core";', '@mantine/core')).toBeNull();
  });

  it('maps Mantine’s exported names to the files behind them, aliases included', () => {
    const exported = barrelExports(mantineCore);
    expect(exported.get('Popover')).toBe(
      path.join(path.dirname(mantineCore), 'components', 'Popover', 'Popover.mjs'),
    );
    // `transitions as MANTINE_TRANSITIONS` in the barrel's export list.
    expect(exported.get('MANTINE_TRANSITIONS')).toMatch(/Transition[\\/]transitions\.mjs$/);
    expect(exported.size).toBeGreaterThan(300);
  });
});
