import { createContext, use, useSyncExternalStore } from 'react';

/**
 * Whether the reviewer's sign-in still holds. Any request that meets a proxy's sign-in answer
 * flips it to `ended`; polling stops and one "Sign in again" state shows until it is reset.
 */
export type SessionState = 'active' | 'ended';

type Listener = () => void;

export interface SessionStore {
  get(): SessionState;
  end(): void;
  reset(): void;
  subscribe(listener: Listener): () => void;
}

export function createSessionStore(): SessionStore {
  let state: SessionState = 'active';
  const listeners = new Set<Listener>();
  const set = (next: SessionState) => {
    if (next === state) return;
    state = next;
    for (const listener of listeners) listener();
  };
  return {
    get: () => state,
    end: () => set('ended'),
    reset: () => set('active'),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function useSessionState(store: SessionStore): SessionState {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

export const SessionContext = createContext<SessionStore>(createSessionStore());

export function useSession(): { state: SessionState; store: SessionStore } {
  const store = use(SessionContext);
  return { state: useSessionState(store), store };
}
