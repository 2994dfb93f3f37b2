import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  type BuiltChunk,
  FIRST_SCREEN_MODULES,
  PART_MODULES,
  PART_PRELOADS_FILE,
  partPreloads,
} from './part-preloads';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

describe('the code of the parts a first screen preloads', () => {
  const chunks: BuiltChunk[] = [
    {
      fileName: 'assets/index.js',
      isEntry: true,
      imports: ['assets/react.js'],
      moduleIds: [path.join(src, 'app/main.tsx')],
    },
    {
      fileName: 'assets/react.js',
      isEntry: false,
      imports: [],
      moduleIds: ['/x/node_modules/react/index.js'],
    },
    {
      fileName: 'assets/first-screen-parts.js',
      isEntry: false,
      imports: ['assets/index.js', 'assets/react.js'],
      moduleIds: [
        path.join(src, 'app/first-screen-lists.ts'),
        path.join(src, 'features/activity/components/header-tools.tsx'),
      ],
    },
    {
      fileName: 'assets/parts.js',
      isEntry: false,
      imports: ['assets/first-screen-parts.js', 'assets/Modal.js'],
      moduleIds: [path.join(src, 'features/presence/parts.tsx')],
    },
    {
      fileName: 'assets/Modal.js',
      isEntry: false,
      imports: ['assets/react.js'],
      moduleIds: ['/x/node_modules/@mantine/core/Modal.mjs'],
    },
  ];

  it('names each part’s files and what they import, less what index.html loads already', () => {
    const preloads = partPreloads(chunks, src, {
      HeaderTools: ['features/activity/components/header-tools.tsx'],
      Team: ['features/presence/parts.tsx'],
    });
    expect(preloads).toEqual({
      always: ['assets/first-screen-parts.js'],
      parts: {
        HeaderTools: ['assets/first-screen-parts.js'],
        Team: ['assets/Modal.js', 'assets/first-screen-parts.js', 'assets/parts.js'],
      },
    });
  });

  it('fails the build when a part’s module is in no file of it', () => {
    expect(() => partPreloads(chunks, src, { Gone: ['features/gone.tsx'] })).toThrow(
      'src/features/gone.tsx is in no file of the build',
    );
  });

  it('knows every named part of the app, and each module it names exists', () => {
    // lazyPart(load, 'Name'): the second argument, never reaching into the next call.
    const named = new Set<string>();
    for (const file of sourceFiles(src)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(
        /lazyPart\((?:(?!lazyPart\()[\s\S])*?,\s*'(\w+)',?\s*\)/g,
      )) {
        named.add(match[1] as string);
      }
    }
    expect(named.size).toBeGreaterThan(5);
    expect([...named].sort()).toEqual(Object.keys(PART_MODULES).sort());
    for (const module of [...Object.values(PART_MODULES).flat(), ...FIRST_SCREEN_MODULES]) {
      expect(existsSync(path.join(src, module)), module).toBe(true);
    }
  });

  it('is the file the server reads', () => {
    const server = readFileSync(path.join(root, 'server/render/part-preloads.ts'), 'utf8');
    expect(server).toContain(`const FILE = '${PART_PRELOADS_FILE}';`);
  });
});
