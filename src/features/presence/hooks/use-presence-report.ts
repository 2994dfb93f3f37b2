import { type RefObject, useEffect } from 'react';
import { sendPresence } from '../api/requests';
import type { TeamSubject } from '../api/schemas';

/** A heartbeat while a question is open: ≤ 1 request per 10 s; none while none is open. */
export const HEARTBEAT_MS = 10_000;
/** Typing is told at most this often, and never what is typed. */
export const TYPING_REPORT_MS = 2_000;

const tab =
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : Math.random().toString(36).slice(2);

/**
 * Tells the server this tab has `question` open while the component is mounted, and that the
 * reviewer is typing when a text field inside `area` changes. Closing it (or the tab) says so.
 */
export function usePresenceReport(
  question: TeamSubject,
  area: RefObject<HTMLElement | null>,
  enabled: boolean,
) {
  const { id } = question;
  const sourceId = question.source.id;
  const kind = question.source.kind;
  useEffect(() => {
    if (!enabled) return;
    const subject = { id, status: '', source: { id: sourceId, kind } };
    let lastTyping = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const send = (typing: boolean) => {
      if (typing) lastTyping = Date.now();
      void sendPresence(tab, subject, typing);
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => send(false), HEARTBEAT_MS);
    };
    send(false);
    const root = area.current?.closest('[role="dialog"]') ?? area.current?.parentElement ?? null;
    const onInput = (event: Event) => {
      const target = event.target as HTMLElement | null;
      if (!target || !root?.contains(target) || !target.matches('textarea, input[type="text"]'))
        return;
      if (Date.now() - lastTyping >= TYPING_REPORT_MS) send(true);
    };
    // Only this question is left: a leave that lands after the next question's first heartbeat
    // (switching with j/k) must not hide that one.
    const onHide = () => void sendPresence(tab, null, false, true, subject);
    const onShow = () => send(false);
    document.addEventListener('input', onInput, true);
    window.addEventListener('pagehide', onHide);
    window.addEventListener('pageshow', onShow);
    return () => {
      if (timer) clearTimeout(timer);
      document.removeEventListener('input', onInput, true);
      window.removeEventListener('pagehide', onHide);
      window.removeEventListener('pageshow', onShow);
      onHide();
    };
  }, [id, sourceId, kind, area, enabled]);
}
