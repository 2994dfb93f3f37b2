import { useEffect, useRef } from 'react';

/**
 * Dispatched on `document` when another reviewer acted on questions through the portal (the
 * team's live stream says so); `detail`: each question's source id and the system's own id. The
 * parts showing one of them (its History, "by alice", the open question) refresh it.
 */
export const ACTED_EVENT = 'questions-inbox:acted';
export type ActedEventDetail = readonly { sourceId: string; questionId: string }[];

/** Whether `question` (as the inbox names it) is among those another reviewer acted on. */
export function actedOn(
  detail: ActedEventDetail,
  question: { id: string; source: { id: string } },
): boolean {
  return detail.some(
    (item) =>
      item.sourceId === question.source.id &&
      (question.id === item.questionId || question.id === `${item.sourceId}:${item.questionId}`),
  );
}

/**
 * Runs `onActed` when another reviewer acts on one of `questions` through the portal. Its own
 * module, not shell-context.ts: only the lazily loaded parts listen, the first screen never does.
 */
export function useActedOn(
  questions: readonly { id: string; source: { id: string } }[],
  onActed: () => void,
): void {
  const latest = useRef({ questions, onActed });
  latest.current = { questions, onActed };
  useEffect(() => {
    const listener = (event: Event) => {
      const detail = (event as CustomEvent<unknown>).detail;
      if (!Array.isArray(detail)) return;
      const { questions: now, onActed: run } = latest.current;
      if (now.some((question) => actedOn(detail as ActedEventDetail, question))) run();
    };
    document.addEventListener(ACTED_EVENT, listener);
    return () => document.removeEventListener(ACTED_EVENT, listener);
  }, []);
}
