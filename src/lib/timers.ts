import { createContext, use, useEffect, useMemo, useRef } from 'react';
import type { Clock } from './clock';
import { useLatest } from './use-latest';

/**
 * Delays the portal waits out (the search box's debounce). The browser's timers by default; tests
 * run them on their manual clock, so `advance(200)` fires a 200 ms debounce and no test sleeps.
 */
export interface Timers {
  /** Calls `run` once, `ms` from now; the returned function cancels it. */
  after(ms: number, run: () => void): () => void;
}

export const browserTimers: Timers = {
  after(ms, run) {
    const id = setTimeout(run, ms);
    return () => clearTimeout(id);
  },
};

/** Timers due when `clock` reaches them: for a manual clock, whenever the test advances it. */
export function clockTimers(clock: Clock): Timers {
  return {
    after(ms, run) {
      const due = clock.now() + ms;
      const unsubscribe = clock.subscribe(() => {
        if (clock.now() < due) return;
        unsubscribe();
        run();
      });
      return unsubscribe;
    },
  };
}

export const TimersContext = createContext<Timers>(browserTimers);

export interface Debounced<A extends unknown[]> {
  (...args: A): void;
  cancel(): void;
}

/** `fn` called `ms` after the last call (with that call's arguments); cancelled on unmount. */
export function useDebouncedCallback<A extends unknown[]>(
  fn: (...args: A) => void,
  ms: number,
): Debounced<A> {
  const timers = use(TimersContext);
  const latest = useLatest(fn);
  const pending = useRef<(() => void) | null>(null);
  useEffect(
    () => () => {
      pending.current?.();
      pending.current = null;
    },
    [],
  );
  return useMemo(() => {
    const cancel = () => {
      pending.current?.();
      pending.current = null;
    };
    const debounced = (...args: A) => {
      cancel();
      pending.current = timers.after(ms, () => {
        pending.current = null;
        latest.current(...args);
      });
    };
    return Object.assign(debounced, { cancel });
  }, [timers, ms]);
}
