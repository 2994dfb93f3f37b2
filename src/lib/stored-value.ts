import { useCallback, useSyncExternalStore } from 'react';

/**
 * A choice remembered in this browser (localStorage), read live by every component that uses the
 * same key, in this tab and in the others (the `storage` event). Reading never writes: Mantine's
 * useLocalStorage wrote each key back, and told every other reader of it, as each component
 * mounted, and the page's first commit waited for that. A browser that refuses storage (quota,
 * private mode, a sandboxed frame) keeps the choice for this tab.
 */
const listeners = new Map<string, Set<() => void>>();
/** Choices the browser refused to store, kept for this tab. */
const refused = new Map<string, string>();
let listening = false;

function read(key: string): string | null {
  const kept = refused.get(key);
  if (kept !== undefined) return kept;
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function notify(key: string) {
  for (const listener of listeners.get(key) ?? []) listener();
}

/** Another tab changed (or cleared) this browser's storage. */
function onStorage(event: StorageEvent) {
  const keys = event.key === null ? [...listeners.keys()] : [event.key];
  for (const key of keys) {
    refused.delete(key);
    notify(key);
  }
}

function subscribe(key: string, listener: () => void) {
  let keyListeners = listeners.get(key);
  if (!keyListeners) {
    keyListeners = new Set();
    listeners.set(key, keyListeners);
  }
  keyListeners.add(listener);
  if (!listening) {
    window.addEventListener('storage', onStorage);
    listening = true;
  }
  return () => {
    keyListeners.delete(listener);
  };
}

/** Remembers `raw` under `key` and tells every reader in this tab (other tabs hear the browser). */
function writeStoredValue(key: string, raw: string): void {
  try {
    window.localStorage.setItem(key, raw);
    refused.delete(key);
  } catch {
    refused.set(key, raw);
  }
  notify(key);
}

type Stored = string | number | boolean;

export interface StoredValueOptions<T extends Stored> {
  /** The stored text (null: nothing stored, or no storage) as the value. */
  parse(raw: string | null): T;
  serialize(value: T): string;
  /**
   * What the server's render shows (it cannot read this browser's storage), and so what the
   * browser's render that takes the server's HTML over shows too; the stored value follows at
   * once, re-rendering only the components where it differs.
   */
  serverValue: T;
}

/** The value stored under `key`, and a setter that stores a new one. */
export function useStoredValue<T extends Stored>(
  key: string,
  { parse, serialize, serverValue }: StoredValueOptions<T>,
): readonly [T, (next: T) => void] {
  const value = useSyncExternalStore(
    useCallback((listener: () => void) => subscribe(key, listener), [key]),
    () => parse(read(key)),
    () => serverValue,
  );
  const set = useCallback((next: T) => writeStoredValue(key, serialize(next)), [key, serialize]);
  return [value, set] as const;
}
