import { createContext, type RefObject, use, useEffect, useMemo, useRef } from 'react';
import { useSwitchPreference } from '@/lib/preferences';
import { useLatest } from '@/lib/use-latest';
import { nextAfterDone } from '../utils/next-question';

export interface DrawerFlow {
  /** An answer, not-applicable or cancel on `id` was accepted: on to the next question, if wanted. */
  done(id: string): void;
  /** True once for the question "answer and next" just moved to: its answer box takes the cursor. */
  takeAnswerFocus(id: string): boolean;
}

export const DrawerFlowContext = createContext<DrawerFlow>({
  done: () => {},
  takeAnswerFocus: () => false,
});

export function useDrawerFlow(): DrawerFlow {
  return use(DrawerFlowContext);
}

/** "Answer and next" is on unless the reviewer turned it off (remembered in this browser). */
export function useAnswerAndNextPreference() {
  return useSwitchPreference('answer-and-next', true);
}

/**
 * Answer and next: once an action on the open question is accepted, the drawer moves to the next
 * question of the view (see nextAfterDone) with the cursor in its answer box. Nothing moves if the
 * reviewer has meanwhile opened another question or closed the drawer. An action accepted before
 * the list has loaded (a question opened by its link, answered at once) moves on when it has.
 */
export function useAnswerAndNext(
  openId: string | undefined,
  visibleIds: string[],
  lastOpen: RefObject<{ id: string; index: number } | null>,
  switchTo: (id: string) => void,
  listLoaded: boolean,
): DrawerFlow {
  const [enabled] = useAnswerAndNextPreference();
  const latest = useLatest({ openId, visibleIds, switchTo, enabled, listLoaded });
  const focusFor = useRef<string | null>(null);
  const waiting = useRef<string | null>(null);
  const flow = useMemo<DrawerFlow>(
    () => ({
      done(id) {
        const { openId, visibleIds, switchTo, enabled, listLoaded } = latest.current;
        if (!enabled || openId !== id) return;
        if (!listLoaded) {
          waiting.current = id;
          return;
        }
        const place = lastOpen.current?.id === id ? lastOpen.current.index : null;
        const next = nextAfterDone(visibleIds, id, place);
        if (!next) return;
        focusFor.current = next;
        switchTo(next);
      },
      takeAnswerFocus(id) {
        if (focusFor.current !== id) return false;
        focusFor.current = null;
        return true;
      },
    }),
    [lastOpen],
  );
  useEffect(() => {
    const id = waiting.current;
    if (id === null || !listLoaded) return;
    waiting.current = null;
    flow.done(id);
  }, [listLoaded, flow]);
  return flow;
}
