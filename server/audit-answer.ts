// What the trail keeps of an answer and of a system's refusal, under AUDIT_ANSWERS and
// AUDIT_ANSWER_MAX_BYTES. No Node built-ins: the static demo's Service Worker runs it too.
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

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
export function keepAnswer(
  answer: string | null,
  mode: AnswerMode,
  options: { maxBytes: number; hashKey: Uint8Array | null },
): KeptAnswer {
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
      answer: bytesToHex(hmac(sha256, options.hashKey, utf8ToBytes(answer))),
    });
  }
  if (answer === null) return kept({ answerMode: 'full' });
  const bytes = utf8ToBytes(answer);
  return kept({
    answerMode: 'full',
    answer: cutToBytes(bytes, options.maxBytes),
    answerBytes: bytes.byteLength,
    answerSha256: bytesToHex(sha256(bytes)),
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
