import { useSyncExternalStore } from 'react';

/**
 * The reviewer's API keys in `auth.mode: "token"`, one per source that needs one (keyed by the
 * source's id). Kept in memory, or in sessionStorage when the reviewer asks for them to survive
 * reloads of this tab; never in localStorage, never in a URL.
 */
export interface TokenStore {
  get(sourceId: string): string | null;
  /** Every key held, by source id; a new object after each change (a snapshot for React). */
  all(): Readonly<Record<string, string>>;
  set(keys: Record<string, string>, options: { rememberInTab: boolean }): void;
  /** Forget one source's key (its server refused it), or every key. */
  clear(sourceId?: string): void;
  subscribe(listener: () => void): () => void;
}

const SESSION_PREFIX = 'questions-inbox:api-key:';

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

function readSession(sourceIds: readonly string[]): Record<string, string> {
  const session = storage();
  const keys: Record<string, string> = {};
  for (const id of sourceIds) {
    try {
      const key = session?.getItem(`${SESSION_PREFIX}${id}`);
      if (key) keys[id] = key;
    } catch {
      // Unreadable storage: the reviewer is asked again.
    }
  }
  return keys;
}

function write(id: string, key: string | null) {
  try {
    const session = storage();
    if (key === null) session?.removeItem(`${SESSION_PREFIX}${id}`);
    else session?.setItem(`${SESSION_PREFIX}${id}`, key);
  } catch {
    // Storage refused: the key still works for this page.
  }
}

/**
 * `sourceIds`: the sources whose keys may be read back from this tab's storage. Empty (proxy mode,
 * which has no keys): a key left in the tab's storage is never read.
 */
export function createTokenStore(sourceIds: readonly string[] = []): TokenStore {
  let keys: Readonly<Record<string, string>> = Object.freeze(readSession(sourceIds));
  const listeners = new Set<() => void>();
  const change = (next: Record<string, string>) => {
    keys = Object.freeze(next);
    for (const listener of listeners) listener();
  };
  return {
    get: (sourceId) => keys[sourceId] ?? null,
    all: () => keys,
    set(given, { rememberInTab }) {
      for (const [id, key] of Object.entries(given)) write(id, rememberInTab ? key : null);
      change({ ...keys, ...given });
    },
    clear(sourceId) {
      const next = { ...keys };
      for (const id of sourceId === undefined ? Object.keys(keys) : [sourceId]) {
        delete next[id];
        write(id, null);
      }
      change(next);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function useTokens(store: TokenStore): Readonly<Record<string, string>> {
  return useSyncExternalStore(store.subscribe, store.all, store.all);
}
