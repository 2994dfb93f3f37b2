// The stylesheets a first screen needs beyond index.html's own. The parts of the app that load
// lazily (the question's pane, the team's line, Mantine's Modal or Switch…) have their CSS in
// files of their own, which the browser otherwise fetches with their code: a page the server
// rendered with them in it would be drawn unstyled (the question's pane under the list instead of
// beside it) until that code ran. Each build's stylesheet is read once for the classes it styles;
// a page links those whose classes its HTML uses.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

interface Stylesheet {
  href: string;
  classes: Set<string>;
}

/** `.name` selectors (CSS modules' and Mantine's classes); `url(x.svg)` adds a harmless "svg". */
const SELECTOR_CLASS = /\.(-?[_a-zA-Z][\w-]*)/g;
const CLASS_ATTRIBUTE = /\sclass="([^"]*)"/g;

export function classesStyled(css: string): Set<string> {
  return new Set(Array.from(css.matchAll(SELECTOR_CLASS), (match) => match[1] as string));
}

export function classesUsed(html: string): Set<string> {
  const used = new Set<string>();
  for (const match of html.matchAll(CLASS_ATTRIBUTE)) {
    for (const name of (match[1] as string).split(/\s+/)) if (name) used.add(name);
  }
  return used;
}

/**
 * Reads `assetsDir`'s stylesheets once (those `template` links already are left out); then, for a
 * rendered page, the `<link>`s of the ones it uses, in the build's order of names.
 */
export function createPartStyles(assetsDir: string) {
  let sheets: Promise<Stylesheet[]> | null = null;
  const load = async (template: string): Promise<Stylesheet[]> => {
    const names = (await readdir(assetsDir).catch(() => [] as string[]))
      .filter((name) => name.endsWith('.css') && !template.includes(`assets/${name}`))
      .sort();
    return Promise.all(
      names.map(async (name) => ({
        href: `./assets/${name}`,
        classes: classesStyled(await readFile(path.join(assetsDir, name), 'utf8')),
      })),
    );
  };
  return async (template: string, html: string): Promise<string> => {
    sheets ??= load(template);
    const used = classesUsed(html);
    return (await sheets)
      .filter((sheet) => [...sheet.classes].some((name) => used.has(name)))
      .map((sheet) => `<link rel="stylesheet" href="${sheet.href}" />`)
      .join('\n    ');
  };
}
