import type { Question } from '../api/schemas';
import { expiresIn, URGENT_MS } from './pending-badge';
import { displayStatus, nowOf, type QuestionNow } from './question-policy';
import { displayText } from './text';

/** Never more than one desktop notification in this long. */
export const MIN_GAP_MS = 60_000;

export interface AlertMemory {
  /** Pending questions the reviewer has seen or been told of (null before the first list). */
  known: Set<string> | null;
  /** Questions already announced as about to expire. */
  urgentTold: Set<string>;
  lastShownAt: number;
  sessionEndedTold: boolean;
}

export function emptyAlertMemory(): AlertMemory {
  return {
    known: null,
    urgentTold: new Set(),
    lastShownAt: Number.NEGATIVE_INFINITY,
    sessionEndedTold: false,
  };
}

export interface DesktopAlert {
  title: string;
  body: string;
  /** The question a click opens; null for the session notice. */
  openId: string | null;
}

export interface AlertInput {
  pending: Question[] | undefined;
  /** The page's time: when notifications were shown. */
  now: number;
  /** Each question's own server time (see QuestionNow); `now` when left out. */
  questionNow?: QuestionNow;
  sessionEnded: boolean;
  /** The reviewer is not looking at this tab (hidden, or another app has the focus). */
  away: boolean;
  /** This tab is the one that tells (it polls for the browser's tabs). */
  teller: boolean;
}

function minutesLeft(ms: number): string {
  // Rounded: the server-time estimate is good to about a second, so 4:00 must not read 5.
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 120) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `${Math.round(minutes / 60)} hours`;
}

/** One line of at most `max` characters, cut between whole characters, direction controls shown. */
function excerpt(text: string, max = 120): string {
  // Only the start is read: the text may be megabytes long.
  const line = text
    .slice(0, max * 4)
    .replace(/\s+/g, ' ')
    .trim();
  return displayText(line, max - 1);
}

/**
 * What to tell a reviewer who is away, given the pending list a poll brought: one notification at
 * most, never two within a minute. New questions first ("3 new questions; the soonest expires in 4
 * minutes"), else a question with under 5 minutes left (once per question). Questions the
 * reviewer saw while looking are never announced; questions held back by the one-a-minute rule
 * wait for the next one. A session that ended is said once, instead of anything else.
 */
export function planDesktopAlert(
  memory: AlertMemory,
  input: AlertInput,
): { alert: DesktopAlert | null; memory: AlertMemory } {
  const { pending, now } = input;
  const questionNow = input.questionNow ?? now;
  if (input.sessionEnded) {
    if (memory.sessionEndedTold || !input.teller || now - memory.lastShownAt < MIN_GAP_MS) {
      return { alert: null, memory };
    }
    return {
      alert: {
        title: 'Your session has ended',
        body: 'Sign in again to see and answer new questions.',
        openId: null,
      },
      memory: { ...memory, sessionEndedTold: true, lastShownAt: now },
    };
  }
  const base = memory.sessionEndedTold ? { ...memory, sessionEndedTold: false } : memory;
  if (!pending) return { alert: null, memory: base };
  const live = pending.filter((q) => displayStatus(q, nowOf(q, questionNow)) === 'pending');
  const ids = new Set(live.map((q) => q.id));
  const urgent = live
    .filter((q) => expiresIn(q, questionNow) < URGENT_MS && !base.urgentTold.has(q.id))
    .sort((a, b) => expiresIn(a, questionNow) - expiresIn(b, questionNow));

  // Looking at the page (or another tab tells): everything on it now counts as seen.
  if (base.known === null || !input.away || !input.teller) {
    return { alert: null, memory: { ...base, known: ids } };
  }
  const fresh = live
    .filter((q) => !base.known?.has(q.id))
    .sort((a, b) => expiresIn(a, questionNow) - expiresIn(b, questionNow));
  // Forget what left the list; keep what was not told yet.
  const known = new Set([...base.known].filter((id) => ids.has(id)));
  if ((fresh.length === 0 && urgent.length === 0) || now - base.lastShownAt < MIN_GAP_MS) {
    return { alert: null, memory: { ...base, known } };
  }
  if (fresh.length > 0) {
    const soonest = fresh[0] as Question;
    const left = expiresIn(soonest, questionNow);
    const count = fresh.length === 1 ? '1 new question' : `${fresh.length} new questions`;
    const when = Number.isFinite(left)
      ? `; ${fresh.length === 1 ? 'it' : 'the soonest'} expires in ${minutesLeft(left)}`
      : '';
    const urgentTold = new Set(base.urgentTold);
    for (const q of fresh) {
      known.add(q.id);
      if (expiresIn(q, questionNow) < URGENT_MS) urgentTold.add(q.id);
    }
    return {
      alert: { title: `${count}${when}`, body: excerpt(soonest.questionText), openId: soonest.id },
      memory: { ...base, known, urgentTold, lastShownAt: now },
    };
  }
  const first = urgent[0] as Question;
  return {
    alert: {
      title: `A question expires in ${minutesLeft(expiresIn(first, questionNow))}`,
      body: excerpt(first.questionText),
      openId: first.id,
    },
    memory: {
      ...base,
      known,
      urgentTold: new Set(base.urgentTold).add(first.id),
      lastShownAt: now,
    },
  };
}
