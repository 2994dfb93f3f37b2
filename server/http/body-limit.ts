// Request bodies are counted as they arrive and never held past the cap: a body over it is
// answered 413 as soon as the count passes, and the rest is never read into memory.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { readBytesWithin } from '../../mock/body';
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

export type LimitedBody =
  | { ok: true; body: Uint8Array<ArrayBuffer> | null }
  | { ok: false; response: Response };

/** `request`'s body (see readBytesWithin), or the 413 to answer when it is over `maxBytes`. */
export async function readBodyWithin(request: Request, maxBytes: number): Promise<LimitedBody> {
  const read = await readBytesWithin(request, maxBytes);
  return read.tooLarge
    ? { ok: false, response: tooLarge(maxBytes) }
    : { ok: true, body: read.bytes };
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
