let firstScreenShown = false;
const afterFirstScreen = new Set<() => void>();

let startNow = false;

/**
 * The page's main content (the list) is on screen: what waited for it may load now. `now`: at
 * once, not when the browser is next idle (the server's first screen: the rows are there, and
 * the browser takes them over only once those parts are here).
 */
export function markFirstScreenShown(options: { now?: boolean } = {}): void {
  if (firstScreenShown) return;
  firstScreenShown = true;
  startNow = options.now === true;
  for (const task of afterFirstScreen) task();
  afterFirstScreen.clear();
  startNow = false;
}

/** Pages with no list (not found, sign-in) never show a "first screen": extras load after this. */
const NO_FIRST_SCREEN_FALLBACK_MS = 5000;

/**
 * Runs `task` when the browser is idle after the first screen is shown (or after a few seconds,
 * for pages with no list), so extras never compete with the list for the network or the CPU.
 */
export function whenIdleAfterFirstScreen(task: () => void): () => void {
  // The server's render of the first screen (src/app/entry-server.tsx) waits for nothing.
  if (typeof window === 'undefined') {
    task();
    return () => {};
  }
  let cancelIdle: (() => void) | null = null;
  const start = () => {
    if (cancelIdle !== null) return;
    if (startNow) {
      cancelIdle = () => {};
      task();
    } else cancelIdle = whenIdle(task);
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

/** What says a reviewer is using the page, not only looking at it. */
const INPUT_EVENTS = [
  'pointermove',
  'pointerover',
  'pointerdown',
  'touchstart',
  'wheel',
  'keydown',
  'focusin',
] as const;

/**
 * Runs `task` once, at the reviewer's first input on the page (the pointer moves, a key, a touch,
 * the wheel, the focus moving), for code only a reviewer at work needs: a tab left open and not
 * touched never runs it. Returns a cancel function.
 */
export function whenReviewerActs(task: () => void): () => void {
  if (typeof window === 'undefined') return () => {};
  const options = { capture: true, passive: true } as const;
  const stop = () => {
    for (const type of INPUT_EVENTS) window.removeEventListener(type, act, options);
  };
  function act() {
    stop();
    task();
  }
  for (const type of INPUT_EVENTS) window.addEventListener(type, act, options);
  return stop;
}
