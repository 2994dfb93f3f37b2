import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

// Synchronous SHA-256 that runs in Node and in a browser's Service Worker alike (the static demo
// runs this mock there; node:crypto is Node's only and WebCrypto's digest is asynchronous).

export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

export function sha256Base64Url(text: string): string {
  let binary = '';
  for (const byte of sha256(utf8ToBytes(text))) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** 32 random hex digits (a UUID without its dashes). */
export function randomHex32(): string {
  return globalThis.crypto.randomUUID().replaceAll('-', '');
}

/** UTF-8 text as unpadded base64url (Node's `Buffer…toString('base64url')`, in a browser too). */
export function base64UrlOf(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** The text of a base64url string; null when it is not one. */
export function textOfBase64Url(encoded: string): string | null {
  if (!/^[A-Za-z0-9_-]*$/.test(encoded)) return null;
  try {
    const binary = atob(encoded.replaceAll('-', '+').replaceAll('_', '/'));
    return new TextDecoder('utf-8', { fatal: true }).decode(
      Uint8Array.from(binary, (char) => char.charCodeAt(0)),
    );
  } catch {
    return null;
  }
}
