// The code a page the server rendered needs before the app can take it over: the reader of its
// lists and the parts it rendered (the header's tools, who acted on a row, the question's pane…).
// The app asks for them as soon as its own code has run; named in the page's <head>, they download
// and compile while the HTML is still being read instead. The browser's build lists each part's
// files in dist/first-screen-code.json (scripts/part-preloads.ts).
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** Written by the browser's build (scripts/part-preloads.ts, PART_PRELOADS_FILE). */
const FILE = 'first-screen-code.json';

interface PartPreloads {
  always: string[];
  parts: Record<string, string[]>;
}

/** Only the build's own file names: `assets/<name>.js`. */
const BUILT_FILE = /^assets\/[\w.-]+\.js$/;

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

/** The `<link rel="modulepreload">`s for a page with these parts, each file once. */
export function preloadLinks(preloads: PartPreloads | null, parts: readonly string[]): string[] {
  if (!preloads) return [];
  const files = new Set(preloads.always);
  for (const part of parts) for (const file of preloads.parts[part] ?? []) files.add(file);
  return [...files].map((file) => `<link rel="modulepreload" href="./${file}" />`);
}

/** The parts' preloads of a rendered page; read once from `distDir`. */
export function createPartPreloads(distDir: string) {
  let preloads: Promise<PartPreloads | null> | null = null;
  return async (parts: readonly string[]): Promise<string[]> => {
    preloads ??= readFile(path.join(distDir, FILE), 'utf8').then(readPartPreloads, () => null);
    return preloadLinks(await preloads, parts);
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
