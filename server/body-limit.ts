// Request bodies are counted as they arrive and never held past the cap: a body over it is
// answered 413 as soon as the count passes, and the rest is never read into memory.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { refusal } from './guards';

/** Like `client_max_body_size 1m` in deploy/nginx: an answer is a few kilobytes. */
export const DEFAULT_MAX_BODY_BYTES = 1_048_576;

export function tooLarge(maxBytes: number): Response {
  return refusal(
    413,
    `Request body too large: the server takes at most ${maxBytes.toLocaleString('en-US')} bytes.`,
    // The rest of the body is not read: the connection cannot carry another request.
    { connection: 'close' },
  );
}

function declaredLength(headers: Headers): number | null {
  const value = headers.get('content-length');
  if (value === null || !/^\d+$/.test(value.trim())) return null;
  return Number(value);
}

export type LimitedBody =
  | { ok: true; body: Uint8Array<ArrayBuffer> | null }
  | { ok: false; response: Response };

/**
 * Reads `request`'s body into one buffer of at most `maxBytes`. Over the cap (declared by
 * Content-Length or counted while a chunked body streams in), stops reading and hands back a 413.
 */
export async function readBodyWithin(request: Request, maxBytes: number): Promise<LimitedBody> {
  const declared = declaredLength(request.headers);
  if (declared !== null && declared > maxBytes) return { ok: false, response: tooLarge(maxBytes) };
  if (!request.body) return { ok: true, body: null };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      // Not cancel(): that destroys the socket before the 413 goes out. The HTTP layer drains
      // (and then closes) what the client is still sending, without keeping it.
      reader.releaseLock();
      return { ok: false, response: tooLarge(maxBytes) };
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, body };
}

type Listener = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * `Expect: 100-continue`: a client waits for the go-ahead before sending the body. A body declared
 * over the cap gets its 413 instead, without a byte of it read; any other is told to go on.
 */
export function handleExpectContinue(
  server: Server,
  maxBytes: number,
  listener: Listener,
  wrap: (listener: Listener) => Listener = (inner) => inner,
): void {
  const onCheckContinue: Listener = (request, response) => {
    const declared = Number(request.headers['content-length'] ?? Number.NaN);
    if (Number.isFinite(declared) && declared > maxBytes) {
      const refused = tooLarge(maxBytes);
      void refused.text().then((text) => {
        response.writeHead(refused.status, Object.fromEntries(refused.headers));
        response.end(text);
      });
      return;
    }
    response.writeContinue();
    listener(request, response);
  };
  server.on('checkContinue', wrap(onCheckContinue));
}
