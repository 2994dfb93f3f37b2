import { useLayoutEffect, useSyncExternalStore } from 'react';

/**
 * Whether a modal layer (the question drawer) is on screen. The page behind it is made inert only
 * while one really is: if the drawer's code could not be downloaded or it failed to render, the
 * message saying so is in the page, and must stay clickable.
 */
let layers = 0;
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function change(delta: number) {
  layers += delta;
  for (const listener of listeners) listener();
}

/** Called by a modal layer: it covers the page while `active`. */
export function useCoveringLayer(active: boolean): void {
  useLayoutEffect(() => {
    if (!active) return;
    change(1);
    return () => change(-1);
  }, [active]);
}

export function useIsCovered(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => layers > 0,
    () => false,
  );
}
