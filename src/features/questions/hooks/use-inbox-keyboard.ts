import type { RefObject } from 'react';
import type { QuestionListHandle } from '../components/list/question-list';
import { useKeys } from './use-shortcuts';

export interface InboxKeyboardOptions {
  openId: string | undefined;
  visibleIds: string[];
  list: RefObject<QuestionListHandle | null>;
  /** The question before or after the open one (see useDrawerNavigation). */
  neighbourOfOpen: (delta: 1 | -1) => string | null;
  switchTo: (id: string) => void;
  searchBox: RefObject<HTMLInputElement | null>;
  showHelp: () => void;
  refresh: () => void;
  /** `x`: selects or unselects the open question, or else the focused row. */
  toggleSelected?: (id: string) => void;
}

/**
 * The inbox's shortcuts: j/k step through the list (or from one open question to the next), `/`
 * searches, `?` shows the shortcuts, `r` refreshes, `x` selects. Off while typing (see useKeys).
 */
export function useInboxKeyboard({
  openId,
  visibleIds,
  list,
  neighbourOfOpen,
  switchTo,
  searchBox,
  showHelp,
  refresh,
  toggleSelected,
}: InboxKeyboardOptions) {
  const step = (delta: 1 | -1) => {
    if (visibleIds.length === 0) return;
    if (openId) {
      const next = neighbourOfOpen(delta);
      if (next) switchTo(next);
      return;
    }
    const focused = list.current?.cursor();
    const index = focused ? visibleIds.indexOf(focused) : -1;
    const target =
      index === -1
        ? delta === 1
          ? 0
          : visibleIds.length - 1
        : Math.min(visibleIds.length - 1, Math.max(0, index + delta));
    const id = visibleIds[target];
    if (id) list.current?.focusRow(id);
  };

  useKeys({
    j: () => step(1),
    k: () => step(-1),
    '/': (event) => {
      event.preventDefault();
      searchBox.current?.focus();
    },
    '?': showHelp,
    r: refresh,
    x: (event) => {
      const id = openId ?? list.current?.cursor();
      if (!id || !toggleSelected) return;
      event.preventDefault();
      toggleSelected(id);
    },
  });
}
