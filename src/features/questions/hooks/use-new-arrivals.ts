import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Question } from '../api/schemas';

/**
 * Pending questions asked after the inbox first loaded are "new" until the reviewer opens them
 * (or marks them all seen). Newer than the newest one at first load, not merely unseen before:
 * with more than 500 pending, older questions slide into the window as others get answered.
 * The question open in the drawer (`openId`) is seen.
 */
export function useNewArrivals(pending: Question[] | undefined, openId?: string) {
  const [baseline, setBaseline] = useState<{ ids: Set<string>; newest: number } | null>(null);
  const [seen, setSeen] = useState<Set<string>>(() => new Set());

  if (baseline === null && pending) {
    setBaseline({
      ids: new Set(pending.map((q) => q.id)),
      newest: Math.max(0, ...pending.map((q) => q.createdAt ?? 0)),
    });
  }

  const newIds = useMemo(() => {
    const ids = new Set<string>();
    if (!baseline || !pending) return ids;
    for (const question of pending) {
      const arrived = !baseline.ids.has(question.id) && (question.createdAt ?? 0) > baseline.newest;
      if (arrived && !seen.has(question.id)) ids.add(question.id);
    }
    return ids;
  }, [baseline, pending, seen]);

  const markSeen = useCallback((id: string) => {
    setSeen((current) => (current.has(id) ? current : new Set(current).add(id)));
  }, []);

  // Only a new arrival is worth remembering: a new set for any other question would re-render the
  // whole inbox in the middle of opening it.
  useEffect(() => {
    if (openId && newIds.has(openId)) markSeen(openId);
  }, [openId, newIds, markSeen]);

  const markAllSeen = useCallback(() => {
    setSeen((current) => new Set([...current, ...newIds]));
  }, [newIds]);

  return { newIds, markSeen, markAllSeen };
}
