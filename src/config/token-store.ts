import { useSyncExternalStore } from 'react';

/**
 * The reviewer's API key in `auth.mode: "token"`. Kept in memory, or in sessionStorage when the
 * reviewer asks for it to survive reloads of this tab; never in localStorage, never in a URL.
 */
export interface TokenStore {
  get(): string | null;
  set(token: string, options: { rememberInTab: boolean }): void;
  clear(): void;
  subscribe(listener: () => void): () => void;
}

const SESSION_KEY = 'questions-inbox:api-key';

function readSession(): string | null {
  try {
    return window.sessionStorage.getItem(SESSION_KEY);
  } catch {
    return null;
  }
}

/** `useStorage: false` (proxy mode, which has no key): a key left in the tab's storage is never read. */
export function createTokenStore(useStorage = true): TokenStore {
  let token = useStorage ? readSession() : null;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };
  return {
    get: () => token,
    set(next, { rememberInTab }) {
      token = next;
      try {
        if (rememberInTab) window.sessionStorage.setItem(SESSION_KEY, next);
        else window.sessionStorage.removeItem(SESSION_KEY);
      } catch {
        // Storage refused: the key still works for this page.
      }
      notify();
    },
    clear() {
      token = null;
      try {
        window.sessionStorage.removeItem(SESSION_KEY);
      } catch {
        // Nothing stored.
      }
      notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function useToken(store: TokenStore): string | null {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}
