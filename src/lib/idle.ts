let firstScreenShown = false;
const afterFirstScreen = new Set<() => void>();

/** The page's main content (the list) is on screen: what waited for it may load now. */
export function markFirstScreenShown(): void {
  if (firstScreenShown) return;
  firstScreenShown = true;
  for (const task of afterFirstScreen) task();
  afterFirstScreen.clear();
}

/** Pages with no list (not found, sign-in) never show a "first screen": extras load after this. */
const NO_FIRST_SCREEN_FALLBACK_MS = 5000;

/**
 * Runs `task` when the browser is idle after the first screen is shown (or after a few seconds,
 * for pages with no list), so extras never compete with the list for the network or the CPU.
 */
export function whenIdleAfterFirstScreen(task: () => void): () => void {
  let cancelIdle: (() => void) | null = null;
  const start = () => {
    if (cancelIdle === null) cancelIdle = whenIdle(task);
  };
  const fallback = setTimeout(start, NO_FIRST_SCREEN_FALLBACK_MS);
  if (firstScreenShown) start();
  else afterFirstScreen.add(start);
  return () => {
    clearTimeout(fallback);
    afterFirstScreen.delete(start);
    cancelIdle?.();
  };
}

/** Runs `task` when the browser is idle (at the latest after 2 s); returns a cancel function. */
export function whenIdle(task: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(task, { timeout: 2000 });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(task, 200);
  return () => clearTimeout(handle);
}
