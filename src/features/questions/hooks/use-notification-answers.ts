import { useEffect } from 'react';
import { isApiError } from '@/lib/api-client';
import { useResolveQuestion } from '../api/mutations';
import { useQuestionSource } from '../api/source';

/** What public/push-sw.js posts when a quick answer is chosen on a notification. */
const ANSWER_MESSAGE = 'questions-inbox:answer';

interface AnswerAsked {
  href: string;
  source: string;
  id: string;
  answer: string;
}

function asked(data: unknown): AnswerAsked | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, href, source, id, answer } = data as Record<string, unknown>;
  if (type !== ANSWER_MESSAGE) return null;
  if (typeof href !== 'string' || typeof source !== 'string' || typeof id !== 'string') return null;
  if (typeof answer !== 'string' || answer.trim() === '' || answer.length > 200) return null;
  return { href, source, id, answer };
}

/** What the worker is told came of it (it words the notification). */
type Outcome =
  | { kind: 'answered' }
  | { kind: 'closed'; status: string }
  | { kind: 'sign-in' }
  | { kind: 'failed'; reason: string };

/**
 * A quick answer chosen on a notification while this inbox tab is open is sent from here, as the
 * drawer sends one (its mutation: this tab's keys and identity, the cache updated, the trail's
 * entry written by the portal server), after reading the question afresh: one answered or closed
 * meanwhile is not answered again. The worker hears "working" at once, then the outcome.
 */
export function useNotificationAnswers() {
  const source = useQuestionSource();
  const resolve = useResolveQuestion();
  const { mutateAsync } = resolve;
  useEffect(() => {
    if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
    const closedOr = async (id: string, error: unknown): Promise<Outcome> => {
      if (isApiError(error) && error.kind === 'not-found')
        return { kind: 'closed', status: 'gone' };
      if (isApiError(error) && error.kind === 'auth') return { kind: 'sign-in' };
      if (isApiError(error) && error.kind === 'conflict') {
        const now = await source.get(id).catch(() => null);
        if (now && now.status !== 'pending') return { kind: 'closed', status: now.status };
      }
      const reason = error instanceof Error ? error.message : String(error);
      return { kind: 'failed', reason: reason.slice(0, 200) };
    };
    const send = async ({ source: sourceId, id, answer }: AnswerAsked): Promise<Outcome> => {
      let question: Awaited<ReturnType<typeof source.get>>;
      try {
        question = await source.get(id);
      } catch (error) {
        return closedOr(id, error);
      }
      if (question.source.id !== sourceId) return { kind: 'failed', reason: 'another system' };
      if (question.status !== 'pending') return { kind: 'closed', status: question.status };
      try {
        await mutateAsync({ id, result: { answer } });
        return { kind: 'answered' };
      } catch (error) {
        return closedOr(id, error);
      }
    };
    const heard = (event: MessageEvent) => {
      const message = asked(event.data);
      const port = event.ports[0];
      if (!message || !port) return;
      if (!message.href.startsWith(new URL('./', document.baseURI).href)) return;
      port.postMessage({ state: 'working' });
      void send(message).then((outcome) => port.postMessage({ state: 'done', ...outcome }));
    };
    navigator.serviceWorker.addEventListener('message', heard);
    return () => navigator.serviceWorker.removeEventListener('message', heard);
  }, [source, mutateAsync]);
}
