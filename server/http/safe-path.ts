// A proxied path is only ever the path the portal's own client builds: ids it could not put safely
// in a URL are never sent (each adapter makes such a question read-only). Anything that decodes
// into another path (an encoded slash or backslash, a dot segment, double encoding) is a request
// to reach somewhere else with the server's key, and is refused before any upstream is asked.

const MAX_DECODE_ROUNDS = 4;

function segments(path: string): string[] {
  return path.split('/');
}

function isDotSegment(segment: string): boolean {
  return segment === '.' || segment === '..';
}

/**
 * Why `rawPath` (a request path as it arrived, percent-encoding kept) may not be proxied, or null
 * when it is a plain path that stays where it points however often it is decoded.
 */
export function unsafePathReason(rawPath: string): string | null {
  let current = rawPath;
  for (let round = 0; round <= MAX_DECODE_ROUNDS; round++) {
    if (current.includes('\\')) return 'a backslash in the path';
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    if (/[\u0000-\u001f\u007f]/.test(current)) return 'a control character in the path';
    if (segments(current).some(isDotSegment)) return 'a dot segment in the path';
    if (!current.includes('%')) return null;
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      return 'malformed percent-encoding in the path';
    }
    if (segments(decoded).length !== segments(current).length)
      return 'an encoded slash in the path';
    if (decoded === current) return null;
    current = decoded;
  }
  return 'a path encoded more than four times';
}
