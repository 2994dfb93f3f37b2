import { useCallback, useMemo, useState } from 'react';
import type { Question } from '../api/schemas';

/**
 * Pending questions that arrived after the inbox first loaded are "new" until the reviewer opens
 * them (or marks them all seen). What was there at first load is the baseline, not news.
 */
export function useNewArrivals(pending: Question[] | undefined) {
  const [baseline, setBaseline] = useState<Set<string> | null>(null);
  const [seen, setSeen] = useState<Set<string>>(() => new Set());

  if (baseline === null && pending) setBaseline(new Set(pending.map((q) => q.id)));

  const newIds = useMemo(() => {
    const ids = new Set<string>();
    if (!baseline || !pending) return ids;
    for (const question of pending) {
      if (!baseline.has(question.id) && !seen.has(question.id)) ids.add(question.id);
    }
    return ids;
  }, [baseline, pending, seen]);

  const markSeen = useCallback((id: string) => {
    setSeen((current) => (current.has(id) ? current : new Set(current).add(id)));
  }, []);

  const markAllSeen = useCallback(() => {
    setSeen((current) => new Set([...current, ...newIds]));
  }, [newIds]);

  return { newIds, markSeen, markAllSeen };
}
