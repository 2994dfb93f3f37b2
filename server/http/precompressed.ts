import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { MiddlewareHandler } from 'hono';
import { getMimeType } from 'hono/utils/mime';
import { type Encoding, isCompressible, negotiateEncoding, varyOnEncoding } from './compress';

const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/**
 * Serves the `.br` / `.gz` files made at build time (scripts/precompress.ts) next to a built file,
 * when the client accepts one: the same bytes nginx's `gzip_static`/`brotli_static` would send,
 * with the original file's Content-Type and the compressed file's Content-Length. Anything else
 * (no variant, the client takes neither, a Range request) falls through to the plain static
 * handler; the compress middleware still marks those `Vary: Accept-Encoding`.
 */
export function servePrecompressed(options: {
  root: string;
  /** The request's path inside `root`, or null when it is not a file of the build. */
  toFilePath: (requestPath: string) => string | null;
}): MiddlewareHandler {
  const root = path.resolve(options.root);
  return async (c, next) => {
    if ((c.req.method !== 'GET' && c.req.method !== 'HEAD') || c.req.header('Range')) return next();
    const inner = options.toFilePath(c.req.path);
    if (!inner || inner.includes('\0')) return next();
    let decoded: string;
    try {
      decoded = decodeURIComponent(inner);
    } catch {
      return next();
    }
    const file = path.resolve(root, `.${path.posix.normalize(`/${decoded}`)}`);
    if (!file.startsWith(root + path.sep)) return next();
    const type = getMimeType(file);
    if (!type || !isCompressible(type)) return next();
    const encoding = negotiateEncoding(c.req.header('Accept-Encoding'));
    if (!encoding) return next();
    const variant = `${file}${SUFFIX[encoding]}`;
    const [original, compressed] = await Promise.all([
      stat(file).catch(() => null),
      stat(variant).catch(() => null),
    ]);
    if (!original?.isFile() || !compressed?.isFile()) return next();
    const headers = {
      'Content-Type': type,
      'Content-Encoding': encoding,
      'Content-Length': String(compressed.size),
      'Last-Modified': original.mtime.toUTCString(),
      Vary: varyOnEncoding(null),
    };
    if (c.req.method === 'HEAD') return c.body(null, 200, headers);
    const body = Readable.toWeb(createReadStream(variant)) as unknown as ReadableStream<Uint8Array>;
    return c.body(body, 200, headers);
  };
}
