/**
 * Where "answer and next" goes once question `id` is done: the question below it in the view, or
 * the one above when it was the last. If it has already left the view (answered questions leave
 * the Pending list), `lastIndex` is where it was. Null when nothing else is left.
 */
export function nextAfterDone(
  visibleIds: readonly string[],
  id: string,
  lastIndex: number | null,
): string | null {
  const index = visibleIds.indexOf(id);
  const candidates =
    index !== -1
      ? [visibleIds[index + 1], visibleIds[index - 1]]
      : [visibleIds[lastIndex ?? 0], visibleIds[(lastIndex ?? 0) - 1], visibleIds.at(-1)];
  return candidates.find((candidate) => candidate !== undefined && candidate !== id) ?? null;
}
