import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { randomHex32, sha256Base64Url, sha256Hex } from './hash';

describe('hash', () => {
  const texts = ['', 'sig-0', 'questions-inbox-demo/gdpr', 'ünïcödé \u200b 🙂', 'x'.repeat(1000)];

  it('gives the same SHA-256 as node:crypto', () => {
    for (const text of texts) {
      expect(sha256Hex(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
      expect(sha256Base64Url(text)).toBe(createHash('sha256').update(text).digest('base64url'));
    }
  });

  it('makes random 32-digit hex ids', () => {
    const a = randomHex32();
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(randomHex32()).not.toBe(a);
  });
});
