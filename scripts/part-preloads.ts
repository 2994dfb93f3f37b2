// Which files a page the server rendered needs before the app can take it over (issue 40): the
// reader of its lists and the code of the parts it rendered (src/components/load-boundary.tsx,
// `lazyPart(load, name)`). The build writes their names to dist/first-screen-code.json; the server
// names a page's in its <head> (server/render/part-preloads.ts) and the app's first module asks for
// them (src/app/first-screen-code.ts), so that they download while the rest of the app's code runs
// instead of once all of it has.
import path from 'node:path';
import type { Plugin } from 'vite';

/** The file the server reads (server/render/part-preloads.ts names it too). */
export const PART_PRELOADS_FILE = 'first-screen-code.json';

/**
 * The modules (under src/) whose code each named part downloads: what its `load` imports. A part
 * named in `lazyPart` but missing here is never preloaded (scripts/part-preloads.test.ts checks
 * that none is); a module named here that is in no file of the build fails the build.
 */
export const PART_MODULES: Readonly<Record<string, readonly string[]>> = {
  HeaderTools: ['features/activity/components/header-tools.tsx'],
  PushMenu: ['features/push/components/push-menu.tsx'],
  ActedBy: ['features/activity/components/acted-by.tsx', 'features/presence/parts.tsx'],
  Team: ['features/presence/parts.tsx'],
  History: ['features/activity/components/question-history.tsx'],
  Snippets: ['features/snippets/answer-snippets.tsx'],
  QuestionDrawer: ['features/questions/components/drawer/question-drawer.tsx'],
  PageParts: ['features/questions/components/list/page-parts.tsx'],
  SourceNotes: ['features/questions/components/list/source-notes.tsx'],
  UnreadableRecords: ['features/questions/components/list/unreadable-records.tsx'],
  ClockSkewNotice: ['components/clock-skew-notice.tsx'],
};

/** What every page the server rendered loads before it is taken over (src/app/main.tsx). */
export const FIRST_SCREEN_MODULES: readonly string[] = ['app/first-screen-lists.ts'];

/** The shape of dist/first-screen-code.json: file names relative to dist/. */
export interface PartPreloads {
  always: string[];
  parts: Record<string, string[]>;
}

/** What the build says of one of its JS files (Rollup's and Rolldown's output chunk). */
export interface BuiltChunk {
  fileName: string;
  isEntry: boolean;
  imports: readonly string[];
  moduleIds: readonly string[];
}

const normalized = (file: string) => file.split(path.sep).join('/');

/**
 * The files `roots` need (themselves and what they import, all the way down) that index.html does
 * not load already (the entry and what it imports), in the order they are first met.
 */
export function beyondFirstDownload(
  chunks: readonly Omit<BuiltChunk, 'moduleIds'>[],
): (roots: Iterable<string>) => string[] {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const closure = (roots: Iterable<string>) => {
    const seen = new Set<string>();
    const add = (fileName: string) => {
      if (seen.has(fileName)) return;
      seen.add(fileName);
      for (const imported of byFile.get(fileName)?.imports ?? []) add(imported);
    };
    for (const root of roots) add(root);
    return seen;
  };
  const initial = closure(chunks.filter((chunk) => chunk.isEntry).map((c) => c.fileName));
  return (roots) => [...closure(roots)].filter((file) => !initial.has(file));
}

/** For each part, the files its modules are in and the files those import, beyond index.html's. */
export function partPreloads(
  chunks: readonly BuiltChunk[],
  src: string,
  parts: Readonly<Record<string, readonly string[]>> = PART_MODULES,
  always: readonly string[] = FIRST_SCREEN_MODULES,
): PartPreloads {
  const byModule = new Map<string, string>();
  for (const chunk of chunks) {
    for (const id of chunk.moduleIds) byModule.set(normalized(id), chunk.fileName);
  }
  const beyond = beyondFirstDownload(chunks);
  const filesOf = (modules: readonly string[]) =>
    beyond(
      modules.map((module) => {
        const file = byModule.get(normalized(path.join(src, module)));
        if (!file)
          throw new Error(`scripts/part-preloads.ts: src/${module} is in no file of the build`);
        return file;
      }),
    ).sort();
  return {
    always: filesOf(always),
    parts: Object.fromEntries(
      Object.entries(parts).map(([name, modules]) => [name, filesOf(modules)]),
    ),
  };
}

/** Writes dist/first-screen-code.json (the browser's build only). */
export function partPreloadsFile(src: string): Plugin {
  return {
    name: 'questions-inbox:part-preloads',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((file) =>
        file.type === 'chunk'
          ? [
              {
                fileName: file.fileName,
                isEntry: file.isEntry,
                imports: file.imports,
                moduleIds: file.moduleIds,
              },
            ]
          : [],
      );
      this.emitFile({
        type: 'asset',
        fileName: PART_PRELOADS_FILE,
        source: `${JSON.stringify(partPreloads(chunks, src), null, 2)}\n`,
      });
    },
  };
}
