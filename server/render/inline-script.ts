// public/first-screen.js, written into the page the server renders instead of linked from it
// (docs/server-rendering.md): a parser-blocking script in <head> that the browser asked for only
// once the page's second piece came, behind the app's own files on HTTP/1.1's six connections,
// so the rows waited for it (the list showed 10 ms later, the take-over 7 ms, on the bench). The
// page's Content-Security-Policy allows it by its hash, and nothing else inline.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';

export interface InlineScript {
  /** The `<script>` element. */
  tag: string;
  /** For the page's `script-src`: `'sha256-…'`. */
  hash: string;
}

/** A text the HTML parser would end or misread inside a script element. */
const UNSAFE = /<\/script|<!--|<script/i;

export function inlineScriptOf(code: string): InlineScript | null {
  if (UNSAFE.test(code)) return null;
  const hash = `'sha256-${createHash('sha256').update(code, 'utf8').digest('base64')}'`;
  return { tag: `<script>${code}</script>`, hash };
}

/**
 * The script at `file`, read again when the file changes (a rebuild); null without it, or with a
 * text that cannot go inline: the page then links it.
 */
export function createInlineScript(file: string): () => Promise<InlineScript | null> {
  let cached: { version: string; script: InlineScript | null } | null = null;
  return async () => {
    try {
      const { mtimeMs, size } = await stat(file);
      const version = `${mtimeMs}:${size}`;
      if (cached?.version !== version) {
        cached = { version, script: inlineScriptOf(await readFile(file, 'utf8')) };
      }
      return cached.script;
    } catch {
      return null;
    }
  };
}
