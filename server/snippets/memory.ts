// Snippets kept in memory: the static demo keeps them in IndexedDB between its workers.
import type { ChangeResult, Snippet, SnippetStore } from './types';

export interface MemorySnippets extends SnippetStore {
  snapshot(): Snippet[];
  /** False when `saved` is not a list of snippets (then the snippets stay as they are). */
  restore(saved: unknown): boolean;
  clear(): void;
}

const isSnippet = (value: unknown): value is Snippet => {
  const s = value as Partial<Snippet> | null;
  return (
    typeof s === 'object' &&
    s !== null &&
    typeof s.id === 'string' &&
    typeof s.sourceId === 'string' &&
    typeof s.title === 'string' &&
    typeof s.body === 'string' &&
    typeof s.version === 'number'
  );
};

/**
 * Snippets in memory, with the rules server/snippets/queries.ts asks PostgreSQL for: at most `max`,
 * one title per system and tag (case aside), changes at a version. `onChange` runs after every
 * change, for whoever persists them.
 */
export function memorySnippets(
  options: { now?: () => number; onChange?: () => void } = {},
): MemorySnippets {
  const now = options.now ?? Date.now;
  let kept: Snippet[] = [];
  const changed = () => options.onChange?.();
  const copy = (snippet: Snippet): Snippet => ({ ...snippet });
  const clash = (sourceId: string, tag: string | null, title: string, except?: string) =>
    kept.some(
      (s) =>
        s.id !== except &&
        s.sourceId === sourceId &&
        (s.tag ?? '') === (tag ?? '') &&
        s.title.toLowerCase() === title.toLowerCase(),
    );
  const byTitle = (a: Snippet, b: Snippet) =>
    a.title.toLowerCase() < b.title.toLowerCase()
      ? -1
      : a.title.toLowerCase() > b.title.toLowerCase()
        ? 1
        : a.id < b.id
          ? -1
          : 1;
  const missing = (id: string): Exclude<ChangeResult, { ok: true } | { reason: 'title-taken' }> => {
    const current = kept.find((s) => s.id === id);
    return current
      ? { ok: false, reason: 'changed', current: copy(current) }
      : { ok: false, reason: 'gone' };
  };

  return {
    async list(sourceId) {
      return kept
        .filter((s) => sourceId === null || s.sourceId === sourceId)
        .sort(byTitle)
        .map(copy);
    },
    async count() {
      return kept.length;
    },
    async get(id) {
      const found = kept.find((s) => s.id === id);
      return found ? copy(found) : null;
    },
    async create(snippet, max) {
      if (kept.length >= max) return { ok: false, reason: 'full', count: kept.length };
      if (clash(snippet.sourceId, snippet.tag, snippet.title))
        return { ok: false, reason: 'title-taken' };
      const at = new Date(now()).toISOString();
      const made: Snippet = {
        id: snippet.id,
        sourceId: snippet.sourceId,
        tag: snippet.tag,
        title: snippet.title,
        body: snippet.body,
        createdBy: snippet.reviewer,
        createdAt: at,
        updatedBy: snippet.reviewer,
        updatedByName: snippet.reviewerName,
        updatedAt: at,
        version: 1,
      };
      kept = [...kept, made];
      changed();
      return { ok: true, snippet: copy(made) };
    },
    async update(id, version, text, reviewer) {
      const before = kept.find((s) => s.id === id);
      if (!before || before.version !== version) return missing(id);
      if (clash(before.sourceId, text.tag, text.title, id))
        return { ok: false, reason: 'title-taken' };
      const after: Snippet = {
        ...before,
        ...text,
        updatedBy: reviewer.id,
        updatedByName: reviewer.name,
        updatedAt: new Date(now()).toISOString(),
        version: before.version + 1,
      };
      kept = kept.map((s) => (s.id === id ? after : s));
      changed();
      return { ok: true, snippet: copy(after), before: copy(before) };
    },
    async remove(id, version) {
      const found = kept.find((s) => s.id === id);
      if (!found || (version !== null && found.version !== version)) return missing(id);
      kept = kept.filter((s) => s.id !== id);
      changed();
      return { ok: true, snippet: copy(found), before: copy(found) };
    },
    snapshot: () => kept.map(copy),
    restore(saved) {
      if (!Array.isArray(saved) || !saved.every(isSnippet)) return false;
      kept = saved.map(copy);
      return true;
    },
    clear() {
      kept = [];
      changed();
    },
  };
}
