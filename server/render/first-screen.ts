// The first screen rendered on the server (issue 40, docs/server-rendering.md): index.html with
// the rows of the list the address asks for already in it, rendered by the portal's own React
// components (src/app/entry-server.tsx, built to dist-ssr/ by `npm run build`). What it reads, it
// reads through the portal itself with the reviewer's own request headers: the same identity,
// the same audit and the same copy of the lists the page would get from its own requests.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PortalOptions } from '../http/portal';
import { createInlineScript, type InlineScript } from './inline-script';
import { firstScreenHead, type RenderedPage, splitPage } from './page-html';
import { createPartPreloads, renderedParts } from './part-preloads';
import { createPartStyles } from './part-styles';

/** What src/app/entry-server.tsx exports (kept by hand: that file is built apart from the server). */
interface EntryServer {
  renderFirstScreen(input: {
    url: URL;
    baseUrl: URL;
    fetch: typeof fetch;
    colorScheme: 'light' | 'dark' | null;
    density: 'comfortable' | 'compact';
    timeoutMs: number;
    onStart?: () => Promise<void> | void;
  }): Promise<
    | { rendered: true; html: string; state: unknown; problems: string[] }
    | { rendered: false; reason: string; problems?: string[] }
  >;
  serializeFirstScreen(state: unknown): string;
  FIRST_SCREEN_ELEMENT_ID: string;
}

export interface FirstScreenOptions {
  /**
   * `always`: every inbox page (`FIRST_SCREEN=on`). `when-asked` (the default for now): only for
   * a browser holding the cookie `qi-first-screen=on` (docs/server-rendering.md, "Turning it on").
   */
  mode?: 'always' | 'when-asked';
  /** dist-ssr/: the server build of entry-server.tsx. */
  ssrDir: string;
  /** dist/assets/: the browser build's files, whose stylesheets a page may need (part-styles.ts); the list of the parts' code (part-preloads.ts) is beside it. */
  assetsDir?: string;
  /** Longest wait for the lists before the page goes without rows (the browser then asks). */
  timeoutMs?: number;
  /** Renders at once; a request beyond them gets the page without rows. */
  maxConcurrent?: number;
  /** The lists in the page, serialized, at most this many bytes; a larger inbox is read by the browser. */
  maxStateBytes?: number;
  log?: (line: string) => void;
}

/** The portal's hook for it (PortalOptions.firstScreen): the page's HTML, or null for the template. */
export type FirstScreenRender = NonNullable<PortalOptions['firstScreen']>;

/** Longest the render waits for the page's <head> to be sent before it reads the lists. */
const HEAD_WAIT_MS = 1000;

/** Headers a read of the page's own data takes from the page's request; the rest are the browser's to set. */
const DROPPED = new Set([
  'accept',
  'accept-encoding',
  'content-length',
  'content-type',
  'connection',
  'upgrade',
  'if-none-match',
  'if-modified-since',
  'range',
  'sec-fetch-dest',
  'sec-fetch-mode',
  'sec-fetch-site',
  'sec-fetch-user',
  'upgrade-insecure-requests',
  'priority',
]);

export function readHeaders(page: Request): Headers {
  const headers = new Headers();
  page.headers.forEach((value, name) => {
    if (!DROPPED.has(name.toLowerCase())) headers.set(name, value);
  });
  // A same-origin fetch, as the page's own code would send it.
  headers.set('accept', 'application/json');
  headers.set('sec-fetch-site', 'same-origin');
  headers.set('sec-fetch-mode', 'cors');
  headers.set('sec-fetch-dest', 'empty');
  return headers;
}

export function cookieValue(request: Request, name: string): string | null {
  const header = request.headers.get('cookie');
  if (!header) return null;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(at + 1).trim());
    } catch {
      return null;
    }
  }
  return null;
}

export function createFirstScreen(options: FirstScreenOptions): FirstScreenRender {
  const entryFile = path.join(options.ssrDir, 'entry-server.js');
  const mode = options.mode ?? 'when-asked';
  const timeoutMs = options.timeoutMs ?? 1500;
  const maxConcurrent = options.maxConcurrent ?? 4;
  const maxStateBytes = options.maxStateBytes ?? 4 * 1024 * 1024;
  const log = options.log ?? ((line: string) => console.error(line));
  let loaded: Promise<EntryServer> | null = null;
  const partStyles = options.assetsDir ? createPartStyles(options.assetsDir) : null;
  // dist/first-screen-code.json, beside dist/assets/.
  const partPreloads = options.assetsDir
    ? createPartPreloads(path.dirname(options.assetsDir))
    : null;
  // dist/first-screen.js, beside dist/assets/: written into the page (inline-script.ts).
  const inlineScript = options.assetsDir
    ? createInlineScript(path.join(path.dirname(options.assetsDir), 'first-screen.js'))
    : async () => null;
  let running = 0;
  const said = new Map<string, number>();
  // One line per kind of problem a minute, not one per page view.
  const sayOnce = (kind: string, line: string) => {
    const now = Date.now();
    if (now - (said.get(kind) ?? -Infinity) < 60_000) return;
    said.set(kind, now);
    log(line);
  };
  const sayFailed = (error: unknown) =>
    sayOnce(
      'failed',
      `First screen: rendering failed (${error instanceof Error ? error.message : String(error)}); pages are rendered by the browser until it works again.`,
    );

  // Loaded once: its chunks import it by its plain address (a query string would load a second
  // copy of every shared module). `npm start` builds before it serves.
  const entry = async (): Promise<EntryServer | null> => {
    try {
      await stat(entryFile);
    } catch {
      sayOnce(
        'missing',
        `First screen: no ${entryFile}; pages are rendered by the browser alone (run \`npm run build\`).`,
      );
      return null;
    }
    loaded ??= import(pathToFileURL(entryFile).href) as Promise<EntryServer>;
    return loaded;
  };

  /** The rendered page, or null for the plain page's rest (what went wrong logged once a minute). */
  const finish = async (
    server: EntryServer,
    rendering: ReturnType<EntryServer['renderFirstScreen']>,
    template: string,
    script: InlineScript | null,
  ): Promise<RenderedPage | null> => {
    try {
      const result = await rendering;
      // What failed on the server is rendered by the browser: one line a minute for operators.
      const first = result.problems?.[0];
      if (first) sayOnce('part', `First screen: a part was left to the browser: ${first}`);
      if (!result.rendered) return null;
      const state = server.serializeFirstScreen(result.state);
      if (state.length > maxStateBytes) {
        sayOnce(
          'large',
          `First screen: lists over ${maxStateBytes} bytes are read by the browser, not put in the page.`,
        );
        return null;
      }
      return {
        head: firstScreenHead(template, result.state, script?.tag),
        styles: [
          partStyles ? await partStyles(template, result.html) : '',
          (partPreloads && (await partPreloads(renderedParts(result.state)))) ?? '',
        ]
          .filter(Boolean)
          .join('\n    '),
        root: result.html,
        after: `<script type="application/json" id="${server.FIRST_SCREEN_ELEMENT_ID}">${state}</script>`,
      };
    } catch (error) {
      sayFailed(error);
      return null;
    }
  };

  return async ({ request, url, baseUrl, template, portal }) => {
    // A reviewer (or a test) can ask for the browser's render alone, or for the server's where it
    // is not on for everyone yet: docs/server-rendering.md.
    const asked = cookieValue(request, 'qi-first-screen');
    if (asked === 'off' || (mode === 'when-asked' && asked !== 'on')) return null;
    if (running >= maxConcurrent) return null;
    const scheme = cookieValue(request, 'qi-color-scheme');
    const colorScheme = scheme === 'dark' || scheme === 'light' ? scheme : null;
    const split = splitPage(template, colorScheme);
    if (!split) return null;
    const script = await inlineScript();
    running += 1;
    let done: Promise<RenderedPage | null> = Promise.resolve(null);
    try {
      const server = await entry();
      if (!server) return null;
      const headers = readHeaders(request);
      // The app's own request (its URL and headers, e.g. Vertesia's x-api-version) with the
      // page's identity: its cookies and whatever the SSO proxy added.
      const read: typeof fetch = async (input, init) => {
        const asked = new Request(input, init);
        const merged = new Headers(headers);
        asked.headers.forEach((value, name) => {
          if (!merged.has(name) || name === 'accept') merged.set(name, value);
        });
        return portal(
          new Request(asked.url, { method: 'GET', headers: merged, signal: asked.signal }),
        );
      };
      const density = cookieValue(request, 'qi-density') === 'compact' ? 'compact' : 'comfortable';
      // The render goes on once the page's <head> is on its way (`rest` is asked for): its work
      // would otherwise hold the <head> back, on this one thread.
      let go = () => {};
      const headGone = new Promise<void>((resolve) => {
        go = resolve;
        setTimeout(resolve, HEAD_WAIT_MS).unref?.();
      });
      let started = () => {};
      const start = new Promise<'started'>((resolve) => {
        started = () => resolve('started');
      });
      const rendering = server.renderFirstScreen({
        url,
        baseUrl,
        fetch: read,
        colorScheme,
        density,
        timeoutMs,
        onStart: () => {
          started();
          return headGone;
        },
      });
      done = finish(server, rendering, template, script);
      // Not for this page (another address, keys in the browser): the plain page as it is.
      if ((await Promise.race([start, done])) === null) return null;
      return {
        head: split.head,
        scriptHashes: script ? [script.hash] : [],
        rest: () => {
          go();
          return done.then((page) => (page ? split.rendered(page) : split.plain));
        },
      };
    } catch (error) {
      sayFailed(error);
      return null;
    } finally {
      // Counted until the page is rendered, not until its <head> is sent.
      void done.finally(() => {
        running -= 1;
      });
    }
  };
}
