import { Duplex } from 'node:stream';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';

export type Encoding = 'br' | 'gzip';

/** Text-like types worth compressing; event streams are left alone so every event arrives as sent. */
const COMPRESSIBLE =
  /^\s*(?:text\/(?!event-stream)[^;\s]+|application\/(?:[^;\s]+\+)?(?:json|javascript|xml|manifest\+json)|image\/svg\+xml)(?:[;\s]|$)/i;

export function isCompressible(contentType: string | null): boolean {
  return !!contentType && COMPRESSIBLE.test(contentType);
}

/**
 * Picks the encoding the client prefers among `offered` (in the server's order of preference when
 * q-values tie), honouring q-values, `*` and `identity;q=0`-style refusals. `undefined`: send as is.
 */
export function negotiateEncoding(
  acceptEncoding: string | null | undefined,
  offered: readonly Encoding[] = ['br', 'gzip'],
): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.trim().split('=');
      if (key?.trim().toLowerCase() === 'q') {
        const parsed = Number(value);
        q = Number.isFinite(parsed) ? Math.min(Math.max(parsed, 0), 1) : 0;
      }
    }
    weights.set(name.trim().toLowerCase(), q);
  }
  let best: { encoding: Encoding; q: number } | undefined;
  for (const encoding of offered) {
    const q = weights.get(encoding) ?? weights.get('*') ?? 0;
    if (q > 0 && (!best || q > best.q)) best = { encoding, q };
  }
  return best?.encoding;
}

/** Adds `Accept-Encoding` to a Vary header value (once). */
export function varyOnEncoding(current: string | null): string {
  if (!current) return 'Accept-Encoding';
  if (current === '*' || /(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(current)) return current;
  return `${current}, Accept-Encoding`;
}

/**
 * `eachChunk`: what was compressed of each chunk goes out with it (a page sent in pieces: its
 * <head> before its rows, server/http/portal.ts), not when the compressor's buffer fills.
 */
function compressor(encoding: Encoding, eachChunk: boolean) {
  // Fast settings: these bodies are made per request (the static assets are compressed at build
  // time with the slowest, smallest settings). Brotli 4 is smaller than gzip 6 and about as fast.
  return encoding === 'br'
    ? createBrotliCompress({
        ...(eachChunk ? { flush: constants.BROTLI_OPERATION_FLUSH } : {}),
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 4,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      })
    : createGzip({ level: 6, ...(eachChunk ? { flush: constants.Z_SYNC_FLUSH } : {}) });
}

/**
 * Reads a body until `threshold` bytes or its end. `complete`: the whole body is in `body` and is
 * `size` bytes; otherwise `body` replays what was read, then streams the rest as it comes.
 */
async function peek(
  source: ReadableStream<Uint8Array>,
  threshold: number,
): Promise<{ body: ReadableStream<Uint8Array>; complete: boolean; size: number }> {
  const reader = source.getReader();
  const head: Uint8Array[] = [];
  let size = 0;
  while (size < threshold) {
    const { done, value } = await reader.read();
    if (done) {
      const whole = new Uint8Array(size);
      let at = 0;
      for (const chunk of head) {
        whole.set(chunk, at);
        at += chunk.byteLength;
      }
      return { body: new Response(whole).body as ReadableStream<Uint8Array>, complete: true, size };
    }
    head.push(value);
    size += value.byteLength;
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of head) controller.enqueue(chunk);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return { body, complete: false, size };
}

/**
 * On-the-fly compression of what was not compressed already: the mock's and the proxied API's
 * JSON, index.html, small files. Streams the body (at most `threshold` bytes are held, to tell
 * a small body of unknown length). Skips bodies under `threshold` bytes, responses that already
 * carry a Content-Encoding (prebuilt assets, an upstream that compressed), event streams, HEAD,
 * 204/206/304 and `Cache-Control: no-transform`. Drops Content-Length and weakens a strong ETag, as the bytes change.
 */
export function compress(options: { threshold?: number } = {}): MiddlewareHandler {
  const threshold = options.threshold ?? 1024;
  return async (c, next) => {
    await next();
    const res = c.res;
    const type = res.headers.get('Content-Type');
    if (!isCompressible(type) || res.headers.has('Content-Encoding')) return;
    if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(res.headers.get('Cache-Control') ?? '')) return;
    // Every compressible response varies by Accept-Encoding, also when this one is sent as is.
    const vary = varyOnEncoding(res.headers.get('Vary'));
    const length = res.headers.get('Content-Length');
    const untouchable =
      c.req.method === 'HEAD' ||
      !res.body ||
      res.status === 204 ||
      res.status === 206 ||
      res.status === 304 ||
      (length !== null && Number(length) < threshold);
    let encoding = untouchable ? undefined : negotiateEncoding(c.req.header('Accept-Encoding'));
    let body: ReadableStream<Uint8Array> | null = res.body;
    if (encoding && body && length === null) {
      // Unknown length (Hono's c.json, the mock, a chunked upstream): look at the first bytes.
      const peeked = await peek(body, threshold);
      body = peeked.body;
      if (peeked.complete) {
        encoding = undefined;
        c.res = new Response(body, res);
        c.res.headers.set('Vary', vary);
        c.res.headers.set('Content-Length', String(peeked.size));
        return;
      }
    }
    if (encoding && body) {
      const html = /^\s*text\/html(?:[;\s]|$)/i.test(type ?? '');
      body = body.pipeThrough(
        Duplex.toWeb(compressor(encoding, html)) as unknown as ReadableWritablePair<
          Uint8Array,
          Uint8Array
        >,
      );
    }
    // A copy: headers of a fetched response are read-only. (Hono's setter copies the old
    // response's headers over, so the changes are made after the assignment.)
    c.res = new Response(body, res);
    c.res.headers.set('Vary', vary);
    if (!encoding) return;
    c.res.headers.delete('Content-Length');
    c.res.headers.set('Content-Encoding', encoding);
    const etag = c.res.headers.get('ETag');
    if (etag && !etag.startsWith('W/')) c.res.headers.set('ETag', `W/${etag}`);
  };
}
