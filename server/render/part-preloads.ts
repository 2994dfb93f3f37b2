// The code a page the server rendered needs before the app can take it over: the reader of its
// lists and the parts it rendered (the header's tools, who acted on a row, the question's pane…).
// The app asked for them only once its own first download had run (about 100 ms of it); named in
// the page's <head>, they are asked for by the app's first module instead (src/app/
// first-screen-code.ts). The browser's build lists each part's files in dist/first-screen-code.json
// (scripts/part-preloads.ts).
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** Written by the browser's build (scripts/part-preloads.ts, PART_PRELOADS_FILE). */
const FILE = 'first-screen-code.json';

interface PartPreloads {
  always: string[];
  parts: Record<string, string[]>;
}

/** Only the build's own file names: `assets/<name>.js`. */
export const BUILT_FILE = /^assets\/[\w.-]+\.js$/;

/** The build's list, or null when there is none (a build from before it, or a broken file). */
export function readPartPreloads(text: string): PartPreloads | null {
  try {
    const value = JSON.parse(text) as Partial<PartPreloads>;
    const files = (list: unknown) =>
      Array.isArray(list)
        ? list.filter((file): file is string => BUILT_FILE.test(String(file)))
        : [];
    if (typeof value.parts !== 'object' || value.parts === null) return null;
    return {
      always: files(value.always),
      parts: Object.fromEntries(
        Object.entries(value.parts).map(([name, list]) => [name, files(list)]),
      ),
    };
  } catch {
    return null;
  }
}

/**
 * The files for a page with these parts, each once, named for the app's first module to ask for
 * (src/app/first-screen-code.ts); null when there are none. Not `<link rel="modulepreload">`s:
 * those would download with the page, before its rows are drawn (issue 40: the first download is
 * not to grow), when the app needs them only once its own code has run.
 */
export function partCodeMeta(
  preloads: PartPreloads | null,
  parts: readonly string[],
): string | null {
  if (!preloads) return null;
  const files = new Set(preloads.always);
  for (const part of parts) for (const file of preloads.parts[part] ?? []) files.add(file);
  return files.size > 0
    ? `<meta name="qi-first-screen-code" content="${[...files].join(' ')}" />`
    : null;
}

/** The meta naming a rendered page's parts' code; the list is read once from `distDir`. */
export function createPartPreloads(distDir: string) {
  let preloads: Promise<PartPreloads | null> | null = null;
  return async (parts: readonly string[]): Promise<string | null> => {
    preloads ??= readFile(path.join(distDir, FILE), 'utf8').then(readPartPreloads, () => null);
    return partCodeMeta(await preloads, parts);
  };
}

/** The part names in the state a page carries (src/lib/first-screen.ts: `parts`). */
export function renderedParts(state: unknown): string[] {
  const parts =
    typeof state === 'object' && state !== null && 'parts' in state ? state.parts : null;
  return Array.isArray(parts)
    ? parts.filter((part): part is string => typeof part === 'string')
    : [];
}
