/** The questions a reviewer ticked for a bulk action, and where a Shift-click range starts. */
export interface Selection {
  ids: ReadonlySet<string>;
  /** The last question ticked or unticked on its own: a Shift-click selects from here. */
  anchor: string | null;
}

export const EMPTY_SELECTION: Selection = { ids: new Set(), anchor: null };

/**
 * Ticks or unticks `id`. With `range` (Shift-click), every question of the view between the anchor
 * and `id` takes the state `id` is given, as in a mail client.
 */
export function toggleSelection(
  selection: Selection,
  id: string,
  viewIds: readonly string[],
  range = false,
): Selection {
  const on = !selection.ids.has(id);
  const ids = new Set(selection.ids);
  const from = selection.anchor === null ? -1 : viewIds.indexOf(selection.anchor);
  const to = viewIds.indexOf(id);
  const span =
    range && from !== -1 && to !== -1
      ? viewIds.slice(Math.min(from, to), Math.max(from, to) + 1)
      : [id];
  for (const each of span) {
    if (on) ids.add(each);
    else ids.delete(each);
  }
  return { ids, anchor: id };
}

/** The header checkbox: every question of the view ticked, or none of them. */
export function selectView(
  selection: Selection,
  viewIds: readonly string[],
  on: boolean,
): Selection {
  const ids = new Set(selection.ids);
  for (const id of viewIds) {
    if (on) ids.add(id);
    else ids.delete(id);
  }
  return { ids, anchor: selection.anchor };
}

/** Only these stay ticked (after a bulk action: the ones that failed). */
export function keepOnly(selection: Selection, keep: readonly string[]): Selection {
  const wanted = new Set(keep);
  return { ids: new Set([...selection.ids].filter((id) => wanted.has(id))), anchor: null };
}
