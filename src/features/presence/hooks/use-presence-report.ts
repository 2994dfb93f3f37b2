import { type RefObject, useEffect } from 'react';
import type { TeamSubject } from '../api/schemas';
import { presenceRelay } from '../live/presence-relay';

/** Typing is told at most this often, and never what is typed. */
export const TYPING_REPORT_MS = 2_000;

/**
 * Tells the server, through the browser's one presence relay, that this tab has `question` open
 * while the component is mounted, and that the reviewer is typing when a text field inside
 * `area` changes. Closing it (or the tab) says so.
 */
export function usePresenceReport(
  question: TeamSubject,
  area: RefObject<HTMLElement | null>,
  enabled: boolean,
) {
  const { id } = question;
  const source = question.source.id;
  useEffect(() => {
    if (!enabled) return;
    const relay = presenceRelay();
    const subject = { source, id };
    let lastTyping = 0;
    relay.open(subject);
    const root = area.current?.closest('[role="dialog"]') ?? area.current?.parentElement ?? null;
    const onInput = (event: Event) => {
      const target = event.target as HTMLElement | null;
      if (!target || !root?.contains(target) || !target.matches('textarea, input[type="text"]'))
        return;
      if (Date.now() - lastTyping < TYPING_REPORT_MS) return;
      lastTyping = Date.now();
      relay.open(subject, true);
    };
    const onHide = () => relay.close(subject, true);
    const onShow = () => relay.open(subject);
    document.addEventListener('input', onInput, true);
    window.addEventListener('pagehide', onHide);
    window.addEventListener('pageshow', onShow);
    return () => {
      document.removeEventListener('input', onInput, true);
      window.removeEventListener('pagehide', onHide);
      window.removeEventListener('pageshow', onShow);
      relay.close(subject);
    };
  }, [id, source, area, enabled]);
}
