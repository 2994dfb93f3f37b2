// The HTML of an inbox page the server renders, in two pieces (issue 40, docs/server-rendering.md):
// index.html up to </head> goes out as soon as the page is asked for, so the browser downloads the
// app's stylesheet and code while the server reads the lists and renders the rows; the rest follows
// when that is done: the first screen's tags, </head> and the rows, or, when there are none to
// send (a system failed, the lists are too large), what the plain page has there instead.

import { BUILT_FILE } from './part-preloads';

export interface RenderedPage {
  /** Goes at the end of <head>, in place of prefetch.js: says the page holds its first screen. */
  head: string;
  /**
   * Goes after it: the stylesheets of the parts on the page (part-styles.ts), then the names of
   * their code's files, for the app to ask for as it starts (part-preloads.ts).
   */
  styles?: string;
  /** #root's content, then the state the browser hydrates with. */
  root: string;
  after: string;
}

/** What index.html has for the browser's own render only: prefetch.js and its config.json preload. */
const PLAIN_ONLY = [
  /\s*<link rel="preload" href="\.\/config\.json"[^>]*>/,
  /\s*<script src="\.\/prefetch\.js"><\/script>/,
];
const ROOT = /<div id="root">[\s\S]*?<\/div>(\s*<noscript>)/;
const STYLESHEET = /<link rel="stylesheet"[^>]*>/g;

export interface SplitPage {
  /** Sent at once: index.html up to </head>, without what only one kind of page has. */
  head: string;
  /** The rest of a page without rows (the browser renders it): prefetch.js, </head>, the body. */
  plain: string;
  /** The rest of a page with its first screen. */
  rendered(page: RenderedPage): string;
}

/**
 * index.html cut where the server's work begins; null for a template without the places the
 * rows go (a page that cannot hold them is sent as it is).
 */
export function splitPage(
  template: string,
  colorScheme: 'light' | 'dark' | null,
): SplitPage | null {
  const end = template.indexOf('</head>');
  if (end < 0 || !ROOT.test(template.slice(end))) return null;
  const removed: string[] = [];
  let head = template.slice(0, end);
  for (const tag of PLAIN_ONLY) {
    head = head.replace(tag, (found) => {
      removed.push(found.trim());
      return '';
    });
  }
  // The stylesheets are fetched from the first piece (a preload) and applied after each kind's
  // own scripts: a script after a stylesheet waits for it before it runs, and the browser reads
  // nothing of the body meanwhile (the rows were read 40-70 ms later on a second visit).
  const stylesheets: string[] = [];
  head = head.replace(STYLESHEET, (found) => {
    stylesheets.push(found);
    return found.replace('rel="stylesheet"', 'rel="preload" as="style"');
  });
  if (colorScheme) {
    head = head.replace(
      '<html lang="en">',
      `<html lang="en" data-mantine-color-scheme="${colorScheme}">`,
    );
  }
  // Both kinds end <head> with their own tags: parser-blocking scripts, which the browser runs
  // before it reads the body (first-screen.js keeps what is clicked on the rows until the app runs).
  const tags = (list: string[]) => list.map((tag) => `  ${tag}\n`).join('');
  const rest = template.slice(end);
  return {
    head,
    plain: `${tags([...removed, ...stylesheets])}  ${rest}`,
    rendered: (page) =>
      `${tags([page.head, ...stylesheets, ...(page.styles ? [page.styles] : [])])}  ${rest.replace(
        ROOT,
        (_all, noscript: string) => `<div id="root">${page.root}</div>${page.after}${noscript}`,
      )}`,
  };
}

/** index.html with the rendered page in it, whole; the template as it is when there is none. */
export function withFirstScreen(
  template: string,
  page: RenderedPage,
  colorScheme: 'light' | 'dark' | null = null,
): string | null {
  const split = splitPage(template, colorScheme);
  return split ? split.head + split.rendered(page) : null;
}

/**
 * With several systems, their code (vite.config.ts names it in the `qi-sources-code` meta) is
 * needed before the app can take the page over: asked for with the page, as prefetch.js does on
 * the browser's own render once config.json says there are several.
 */
export function sourcesCodePreloads(template: string, state: unknown): string[] {
  const files = /<meta name="qi-sources-code" content="([^"]*)"/.exec(template)?.[1];
  const config =
    typeof state === 'object' && state !== null && 'config' in state ? state.config : null;
  if (!files || typeof config !== 'string') return [];
  let sources: unknown;
  try {
    sources = (JSON.parse(config) as { sources?: unknown }).sources;
  } catch {
    return [];
  }
  if (!Array.isArray(sources) || sources.length < 2) return [];
  return files
    .split(' ')
    .filter((file) => BUILT_FILE.test(file))
    .map((file) => `<link rel="modulepreload" href="./${file}" />`);
}

/**
 * What a page with its first screen has at the end of <head> in place of prefetch.js.
 * `script`: first-screen.js's own element, inline (inline-script.ts); without it, a link to it.
 */
export function firstScreenHead(template: string, state: unknown, script?: string): string {
  return [
    '<meta name="qi-first-screen" content="1" />',
    script ?? '<script src="./first-screen.js"></script>',
    ...sourcesCodePreloads(template, state),
  ].join('\n    ');
}
