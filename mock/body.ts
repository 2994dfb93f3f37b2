// Dependency-free on purpose (no Node modules): the mock reads bodies with it, and so does the
// portal's server (server/http/body-limit.ts), so both count a body the same way.

/** Content-Length as a byte count, or null when absent or not a plain number. */
export function declaredLength(headers: Headers): number | null {
  const value = headers.get('content-length');
  if (value === null || !/^\d+$/.test(value.trim())) return null;
  return Number(value);
}

/** A body read up to a cap: `bytes` is null when the request has no body. */
export type CappedBody =
  | { tooLarge: true }
  | { tooLarge: false; bytes: Uint8Array<ArrayBuffer> | null };

/**
 * Reads `request`'s body into one buffer of at most `maxBytes`. Over the cap (declared by
 * Content-Length or counted while a chunked body streams in) it stops reading, so a huge body is
 * never held.
 */
export async function readBytesWithin(request: Request, maxBytes: number): Promise<CappedBody> {
  const declared = declaredLength(request.headers);
  if (declared !== null && declared > maxBytes) return { tooLarge: true };
  if (!request.body) return { tooLarge: false, bytes: null };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      // Not cancel(): under Node that destroys the socket before the 413 goes out. The HTTP layer
      // drains (and then closes) what the client is still sending, without keeping it.
      reader.releaseLock();
      return { tooLarge: true };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { tooLarge: false, bytes };
}

/** The request's body as text, or null when it is over `maxBytes` (see readBytesWithin). */
export async function readTextWithin(request: Request, maxBytes: number): Promise<string | null> {
  const read = await readBytesWithin(request, maxBytes);
  if (read.tooLarge) return null;
  return read.bytes ? new TextDecoder().decode(read.bytes) : '';
}
