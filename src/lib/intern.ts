/**
 * One copy of each value repeated across a list's records (the same scope hash, user, tool, tags
 * or scope on hundreds of questions): JSON.parse makes one per occurrence, kept for as long as the
 * list is. Records are never changed in place, so they can share.
 */
export interface Intern {
  text(value: string): string;
  /** A small JSON value (a scope, tags): the list's first one equal to it. */
  json<T>(value: T): T;
}

/** Longer scopes are rare and not worth the text of a key. */
const MAX_JSON_KEY = 1000;

export function createIntern(): Intern {
  const texts = new Map<string, string>();
  const values = new Map<string, unknown>();
  return {
    text(value) {
      const same = texts.get(value);
      if (same !== undefined) return same;
      texts.set(value, value);
      return value;
    },
    json(value) {
      if (value === null || typeof value !== 'object') return value;
      const key = JSON.stringify(value);
      if (key.length > MAX_JSON_KEY) return value;
      if (values.has(key)) return values.get(key) as typeof value;
      values.set(key, value);
      return value;
    },
  };
}
