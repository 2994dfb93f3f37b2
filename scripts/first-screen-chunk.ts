// One file for the code of the parts every inbox page shows at its first screen (the header's
// tools, the push menu, who acted on a row, the reader of the server's lists) and what they import
// that the first download does not hold. Left to the bundler, that code came in about 30 files of
// 0.4–12 KB, mostly Mantine's components one by one: a page the server rendered waited for all of
// them, six at a time over HTTP/1.1, before the app could take its HTML over (requests queued up
// to 100 ms on the bench's machine). See docs/performance.md.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ChunkingContext, CodeSplittingGroup } from 'rolldown';
import type { Plugin } from 'vite';

export const FIRST_SCREEN_PARTS_CHUNK = 'first-screen-parts';

/**
 * The modules (under src/) a first screen loads lazily on every visit to the inbox. Not the
 * team's parts (features/presence/parts.tsx), which the question's pane shows too and which may
 * come after it, nor the virtualized list, which only a long list needs and which comes after the
 * app has taken the page over: each keeps a file of its own (what they share with these is here).
 */
export const FIRST_SCREEN_PARTS = [
  'features/activity/components/header-tools.tsx',
  'features/activity/components/acted-by.tsx',
  'features/push/components/push-menu.tsx',
  'app/first-screen-lists.ts',
];

/**
 * Files that only re-export a library's modules. Importing one name through them brings only the
 * module behind that name (the bundler leaves out what is not used), so the walk follows the
 * names imported, not every module they list.
 */
const BARRELS = /node_modules[\\/]@mantine[\\/](core|hooks)[\\/]esm[\\/]index\.mjs$/;

const NAMED_IMPORT = /import\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g;
const EXPORT_LIST = /export\s*\{([^}]*)\}\s*;?/g;

/** `a, b as c` → [[a, a], [b, c]] (the name before `as`, the name after). */
export function specifiers(list: string): Array<[string, string]> {
  return list
    .split(',')
    .map((item) => item.trim().replace(/^type\s+/, ''))
    .filter(Boolean)
    .map((item) => {
      const [from, to] = item.split(/\s+as\s+/);
      return [from as string, (to ?? from) as string];
    });
}

/** A barrel's exported names → the file behind each (read from the barrel's own source). */
export function barrelExports(file: string): Map<string, string> {
  const source = readFileSync(file, 'utf8');
  const local = new Map<string, string>();
  for (const match of source.matchAll(NAMED_IMPORT)) {
    const target = path.resolve(path.dirname(file), match[2] as string);
    for (const [, name] of specifiers(match[1] as string)) local.set(name, target);
  }
  const exported = new Map<string, string>();
  for (const match of source.matchAll(EXPORT_LIST)) {
    for (const [name, as] of specifiers(match[1] as string)) {
      const target = local.get(name);
      if (target) exported.set(as, target);
    }
  }
  return exported;
}

/** What `code` imports by name from `specifier` (null: not by name alone, e.g. `import * as`). */
export function namesImported(code: string, specifier: string): string[] | null {
  const names: string[] = [];
  for (const match of code.matchAll(NAMED_IMPORT)) {
    if (match[2] === specifier) names.push(...specifiers(match[1] as string).map(([from]) => from));
  }
  const whole = new RegExp(
    `import\\s+(\\*|\\w+)[^;]*from\\s*["']${specifier.replace('/', '\\/')}["']`,
  );
  return whole.test(code) ? null : names;
}

/** The package name a barrel is imported by (`@mantine/core`). */
const packageOf = (barrel: string) =>
  /node_modules[\\/](@[^\\/]+[\\/][^\\/]+)/.exec(barrel)?.[1]?.replace('\\', '/') ?? '';

/**
 * The groups to list after the others (`codeSplitting.groups`), and the plugin that checks what
 * they made: the parts' file is not in the first download and imports nothing that is not.
 */
export function firstScreenParts(src: string): { groups: CodeSplittingGroup[]; check: Plugin } {
  const roots = FIRST_SCREEN_PARTS.map((file) => path.join(src, file));
  /** Modules in the first download, as the bundler tags them ('$initial', after tree-shaking). */
  const initial = new Set<string>();
  const exportsOf = new Map<string, Map<string, string>>();
  // One walk per chunking pass (the context's module records are the same objects within one).
  const walks = new WeakMap<object, Set<string>>();

  const walk = (ctx: ChunkingContext): Set<string> => {
    const reached = new Set<string>();
    const stack = [...roots];
    while (stack.length > 0) {
      const id = stack.pop() as string;
      if (reached.has(id)) continue;
      reached.add(id);
      const info = ctx.getModuleInfo(id);
      if (!info) continue;
      for (const imported of info.importedIds) {
        if (!BARRELS.test(imported)) {
          stack.push(imported);
          continue;
        }
        let names = exportsOf.get(imported);
        if (!names) {
          names = barrelExports(imported);
          exportsOf.set(imported, names);
        }
        const asked = info.code === null ? null : namesImported(info.code, packageOf(imported));
        // Not by name: everything the barrel lists (a larger file, never a wrong one).
        for (const target of asked === null ? names.values() : asked.map((n) => names.get(n))) {
          if (target) stack.push(target);
        }
      }
    }
    return reached;
  };

  const reachedFrom = (ctx: ChunkingContext): Set<string> => {
    const key = ctx.getModuleInfo(roots[0] as string) ?? ctx;
    let reached = walks.get(key);
    if (!reached) {
      reached = walk(ctx);
      walks.set(key, reached);
    }
    return reached;
  };

  // Captures nothing: it only notes the modules the bundler tagged as the first download's.
  const initialGroup: CodeSplittingGroup = {
    debugName: 'first-download',
    tags: ['$initial'],
    name: (id) => {
      initial.add(id);
      return null;
    },
  };

  const group: CodeSplittingGroup = {
    debugName: FIRST_SCREEN_PARTS_CHUNK,
    name: (id, ctx) => {
      // The group before this one records the first download's modules (see `initialGroup`).
      if (initial.has(id) || BARRELS.test(id)) return null;
      return reachedFrom(ctx).has(id) ? FIRST_SCREEN_PARTS_CHUNK : null;
    },
    // What they import from the first download stays there; the rest is all in the walk above,
    // so this file imports only the first download's files (checked below).
    includeDependenciesRecursively: false,
  };

  const check: Plugin = {
    name: 'questions-inbox:first-screen-parts-check',
    apply: 'build',
    buildStart() {
      initial.clear();
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((file) => (file.type === 'chunk' ? [file] : []));
      const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const first = new Set<string>();
      const add = (fileName: string) => {
        if (first.has(fileName)) return;
        first.add(fileName);
        for (const imported of byName.get(fileName)?.imports ?? []) add(imported);
      };
      for (const chunk of chunks) if (chunk.isEntry) add(chunk.fileName);
      const parts = chunks.find((chunk) => chunk.name === FIRST_SCREEN_PARTS_CHUNK);
      if (!parts) {
        this.error(
          `No ${FIRST_SCREEN_PARTS_CHUNK} chunk: are FIRST_SCREEN_PARTS still the parts' files?`,
        );
      }
      if (first.has(parts.fileName)) {
        this.error(
          `${parts.fileName} is in the first download: a module of it is also the entry's`,
        );
      }
      const outside = parts.imports.filter((imported) => !first.has(imported));
      if (outside.length > 0) {
        this.error(
          `${parts.fileName} imports ${outside.join(', ')}, outside the first download: those files would import it back (an order the bundler does not keep)`,
        );
      }
    },
  };

  return { groups: [initialGroup, group], check };
}
