import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Question, QuestionList } from '../api/schemas';

type Baseline = ReadonlyMap<string, { ids: ReadonlySet<string>; newest: number }>;

/**
 * Each source's questions when its rows first came in: a source still loading (or failing) on
 * the first load gets its baseline when it answers, so its rows are not taken for new arrivals.
 */
function extend(baseline: Baseline, list: QuestionList): Baseline {
  const waiting = new Set<string>();
  for (const entry of list.loading ?? []) waiting.add(entry.source.id);
  for (const entry of list.failures ?? []) if (!entry.stale) waiting.add(entry.source.id);
  const bySource = new Map<string, Question[]>();
  for (const question of list.questions) {
    const id = question.source.id;
    if (baseline.has(id) || waiting.has(id)) continue;
    const questions = bySource.get(id);
    if (questions) questions.push(question);
    else bySource.set(id, [question]);
  }
  if (bySource.size === 0) return baseline;
  const next = new Map(baseline);
  for (const [id, questions] of bySource) {
    next.set(id, {
      ids: new Set(questions.map((q) => q.id)),
      newest: Math.max(0, ...questions.map((q) => q.createdAt ?? 0)),
    });
  }
  return next;
}

/**
 * Pending questions asked after the inbox first loaded are "new" until the reviewer opens them
 * (or marks them all seen). Newer than the newest one of its source at first load, not merely
 * unseen before: with more than 500 pending, older questions slide into the window as others get
 * answered. The question open in the drawer (`openId`) is seen.
 */
export function useNewArrivals(pending: QuestionList | undefined, openId?: string) {
  // The first list in hand at the first render (the server's first screen, or a list read
  // before): its baseline at once, not by a second render of the inbox.
  const [baseline, setBaseline] = useState<Baseline | null>(() =>
    pending ? extend(new Map(), pending) : null,
  );
  const [seen, setSeen] = useState<Set<string>>(() => new Set());

  // Looked at when the list or the baseline changes, not on every render of the inbox.
  const extended = useMemo(
    () => (pending ? extend(baseline ?? new Map(), pending) : baseline),
    [pending, baseline],
  );
  if (extended !== baseline) setBaseline(extended);

  const newIds = useMemo(() => {
    const ids = new Set<string>();
    if (!baseline || !pending) return ids;
    for (const question of pending.questions) {
      const known = baseline.get(question.source.id);
      if (!known) continue;
      const arrived = !known.ids.has(question.id) && (question.createdAt ?? 0) > known.newest;
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
