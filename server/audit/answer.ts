// What the trail keeps of an answer and of a system's refusal, under AUDIT_ANSWERS and
// AUDIT_ANSWER_MAX_BYTES. No Node built-ins: the static demo's Service Worker runs it too.
// Hashes through Web Crypto (Node and the Service Worker alike): a 1 MB answer is hashed off the
// event loop, not in JavaScript on it.

export type AnswerMode = 'full' | 'hash' | 'none';

/** How an entry's answer is kept, as `answer_mode` names it (`hash` entries from before are SHA-256). */
export type KeptAs = 'full' | 'hmac-sha256' | 'none';

export const DEFAULT_ANSWER_MAX_BYTES = 4096;

export interface KeptAnswer {
  answer: string | null;
  answerMode: KeptAs;
  /** Size of the whole answer sent, in UTF-8 bytes (full only). */
  answerBytes: number | null;
  /** SHA-256 of the whole answer sent, hex (full only: with `hash` it would undo the key). */
  answerSha256: string | null;
}

const hex = (buffer: ArrayBuffer) =>
  Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, '0')).join('');

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return hex(await globalThis.crypto.subtle.digest('SHA-256', bytes));
}

async function hmacHex(
  key: Uint8Array<ArrayBuffer>,
  bytes: Uint8Array<ArrayBuffer>,
): Promise<string> {
  const imported = await globalThis.crypto.subtle.importKey(
    'raw',
    key,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return hex(await globalThis.crypto.subtle.sign('HMAC', imported, bytes));
}

/** The first `maxBytes` of `text` in UTF-8, never cutting a character in two. */
export function cutToBytes(bytes: Uint8Array, maxBytes: number): string {
  if (bytes.byteLength <= maxBytes) return new TextDecoder().decode(bytes);
  let end = maxBytes;
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return new TextDecoder().decode(bytes.subarray(0, end));
}

/**
 * `full`: the answer up to `maxBytes`, with the size and SHA-256 of the whole; `hash`: its
 * HMAC-SHA-256 under the deployment's key (a dictionary of likely answers cannot reverse it
 * without the key); `none`: nothing.
 */
export async function keepAnswer(
  answer: string | null,
  mode: AnswerMode,
  options: { maxBytes: number; hashKey: Uint8Array<ArrayBuffer> | null },
): Promise<KeptAnswer> {
  const kept = (value: Partial<KeptAnswer> & Pick<KeptAnswer, 'answerMode'>): KeptAnswer => ({
    answer: null,
    answerBytes: null,
    answerSha256: null,
    ...value,
  });
  if (mode === 'none') return kept({ answerMode: 'none' });
  if (mode === 'hash') {
    if (answer === null) return kept({ answerMode: 'hmac-sha256' });
    if (!options.hashKey) throw new Error('AUDIT_ANSWERS=hash needs its key');
    return kept({
      answerMode: 'hmac-sha256',
      answer: await hmacHex(options.hashKey, new TextEncoder().encode(answer)),
    });
  }
  if (answer === null) return kept({ answerMode: 'full' });
  const bytes = new TextEncoder().encode(answer);
  return kept({
    answerMode: 'full',
    answer: cutToBytes(bytes, options.maxBytes),
    answerBytes: bytes.byteLength,
    answerSha256: await sha256Hex(bytes),
  });
}

const REFUSAL_MAX_CHARS = 500;

/**
 * A system's words on a refusal as the trail keeps them: under `full` its error body, short;
 * under `hash` and `none` only the status, since a refusal often repeats the request (a 422
 * echoing the answer it would not take).
 */
export function keptRefusal(status: number, body: string | null, mode: AnswerMode): string | null {
  if (status < 400) return null;
  if (mode !== 'full') {
    return `HTTP ${status}; the system's words are not kept (AUDIT_ANSWERS=${mode}: they can repeat the answer)`;
  }
  const text = body?.replaceAll('\u0000', '').slice(0, REFUSAL_MAX_CHARS);
  return text || null;
}
