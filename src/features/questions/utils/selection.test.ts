import { describe, expect, it } from 'vitest';
import { EMPTY_SELECTION, keepOnly, selectView, toggleSelection } from './selection';

const view = ['a', 'b', 'c', 'd', 'e'];
const ids = (selection: { ids: ReadonlySet<string> }) => [...selection.ids].sort();

describe('selection', () => {
  it('ticks and unticks one question', () => {
    const one = toggleSelection(EMPTY_SELECTION, 'b', view);
    expect(ids(one)).toEqual(['b']);
    expect(ids(toggleSelection(one, 'b', view))).toEqual([]);
  });

  it('Shift-click ticks the range from the last question ticked, either way', () => {
    const first = toggleSelection(EMPTY_SELECTION, 'b', view);
    expect(ids(toggleSelection(first, 'd', view, true))).toEqual(['b', 'c', 'd']);
    const fromEnd = toggleSelection(EMPTY_SELECTION, 'e', view);
    expect(ids(toggleSelection(fromEnd, 'c', view, true))).toEqual(['c', 'd', 'e']);
  });

  it('Shift-click on a ticked question unticks the range', () => {
    const all = selectView(EMPTY_SELECTION, view, true);
    const anchored = toggleSelection(toggleSelection(all, 'a', view), 'a', view);
    expect(ids(toggleSelection(anchored, 'c', view, true))).toEqual(['d', 'e']);
  });

  it('Shift-click without an anchor in the view ticks just that question', () => {
    const elsewhere = toggleSelection(EMPTY_SELECTION, 'z', ['z']);
    expect(ids(toggleSelection(elsewhere, 'c', view, true))).toEqual(['c', 'z']);
  });

  it('the header checkbox ticks and unticks the view only', () => {
    const other = toggleSelection(EMPTY_SELECTION, 'z', ['z']);
    expect(ids(selectView(other, view, true))).toEqual([...view, 'z']);
    expect(ids(selectView(selectView(other, view, true), view, false))).toEqual(['z']);
  });

  it('keeps only the given questions', () => {
    const all = selectView(EMPTY_SELECTION, view, true);
    expect(ids(keepOnly(all, ['c', 'q']))).toEqual(['c']);
  });
});
