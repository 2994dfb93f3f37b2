const marked = new Set<string>();

/**
 * `performance.mark(name)` the first time only. The benchmark (`npm run bench`) reads the marks of
 * the first load; a mark on every poll would pile up in the page all day.
 *   qi:list-data          the first list is parsed and validated (data in hand)
 *   qi:list-render-start  the list component starts rendering its first rows
 *   qi:list-rendered      those rows are committed to the page
 */
export function markOnce(name: 'qi:list-data' | 'qi:list-render-start' | 'qi:list-rendered'): void {
  if (marked.has(name)) return;
  marked.add(name);
  performance.mark(name);
}
