import { useSyncExternalStore } from 'react';

/**
 * One value that one part sets and another reads, outside React's state: setting it re-renders
 * only the components that read it (`useSlot`), not the component that made the slot and
 * everything under it.
 */
export interface Slot<T> {
  get(): T;
  set(value: T): void;
  subscribe(listener: () => void): () => void;
}

export function createSlot<T>(initial: T): Slot<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set: (next) => {
      if (Object.is(next, value)) return;
      value = next;
      for (const listener of listeners) listener();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const noSubscription = () => () => {};

/** The slot's value, re-rendering when it is set; `fallback` without a slot. */
export function useSlot<T>(slot: Slot<T> | undefined, fallback: T): T {
  const read = () => (slot ? slot.get() : fallback);
  return useSyncExternalStore(slot ? slot.subscribe : noSubscription, read, read);
}
