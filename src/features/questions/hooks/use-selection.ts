import { createContext, use, useCallback, useMemo, useRef, useState } from 'react';
import type { Question } from '../api/schemas';
import {
  EMPTY_SELECTION,
  keepOnly,
  type Selection,
  selectView,
  toggleSelection,
} from '../utils/selection';

export interface SelectionApi {
  ids: ReadonlySet<string>;
  /** Ticked questions of the current view (a ticked one filtered out of it is left alone). */
  selected: Question[];
  has: (id: string) => boolean;
  toggle: (id: string, range?: boolean) => void;
  setView: (on: boolean) => void;
  keepOnly: (ids: string[]) => void;
  clear: () => void;
  /** For SelectionContext: changes only when the ticks do. */
  context: SelectionContextValue;
}

export interface SelectionContextValue {
  ids: ReadonlySet<string>;
  toggle: (id: string, range?: boolean) => void;
  /** Ticks or unticks these (a look-alike group's asks) together. */
  setSome: (ids: readonly string[], on: boolean) => void;
}

/** The list reads ticks from here (rows stay memoized; only those whose tick changes re-render). */
export const SelectionContext = createContext<SelectionContextValue | null>(null);

export function useSelectionContext() {
  return use(SelectionContext);
}

/** The bulk selection over the questions of the current view. */
export function useSelection(visible: Question[]): SelectionApi {
  const [selection, setSelection] = useState<Selection>(EMPTY_SELECTION);
  const viewIds = useRef<string[]>([]);
  viewIds.current = useMemo(() => visible.map((q) => q.id), [visible]);
  const toggle = useCallback(
    (id: string, range = false) =>
      setSelection((current) => toggleSelection(current, id, viewIds.current, range)),
    [],
  );
  const setSome = useCallback(
    (ids: readonly string[], on: boolean) =>
      setSelection((current) => selectView(current, ids, on)),
    [],
  );
  const selected = useMemo(
    () => visible.filter((q) => selection.ids.has(q.id)),
    [visible, selection.ids],
  );
  const context = useMemo(
    () => ({ ids: selection.ids, toggle, setSome }),
    [selection.ids, toggle, setSome],
  );
  return {
    context,
    ids: selection.ids,
    selected,
    has: (id) => selection.ids.has(id),
    toggle,
    setView: (on) => setSelection((current) => selectView(current, viewIds.current, on)),
    keepOnly: (ids) => setSelection((current) => keepOnly(current, ids)),
    clear: () => setSelection(EMPTY_SELECTION),
  };
}
