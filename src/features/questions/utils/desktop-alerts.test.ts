import { act, renderHook } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { ClockContext, createManualClock } from '@/lib/clock';
import { type Question, REFLEXIO_ORIGIN } from '../api/schemas';
import { usePendingBadge } from '../hooks/use-desktop-alerts';
import {
  type AlertInput,
  type AlertMemory,
  emptyAlertMemory,
  planDesktopAlert,
} from './desktop-alerts';
import { pendingBadge } from './pending-badge';

const NOW = Date.parse('2026-12-01T09:00:00Z');
const MINUTE = 60_000;

function question(id: string, expiresInMs: number | null, text = `Question ${id}?`): Question {
  return {
    id,
    source: REFLEXIO_ORIGIN,
    status: 'pending',
    toolName: 'ask_human',
    questionText: text,
    userId: null,
    tags: [],
    answerFormat: null,
    args: null,
    scope: null,
    result: null,
    notApplicable: false,
    supersededBy: null,
    scopeHash: null,
    dedupKey: null,
    asker: null,
    createdAt: NOW - MINUTE,
    resolvedAt: null,
    expiresAt: expiresInMs === null ? null : NOW + expiresInMs,
    validUntil: null,
  };
}

const away = (pending: Question[], now = NOW, extra: Partial<AlertInput> = {}): AlertInput => ({
  pending,
  now,
  sessionEnded: false,
  away: true,
  teller: true,
  ...extra,
});

/** Runs polls in order, returning each alert's title (or null). */
function polls(inputs: AlertInput[], memory: AlertMemory = emptyAlertMemory()) {
  const titles: (string | null)[] = [];
  let current = memory;
  for (const input of inputs) {
    const { alert, memory: next } = planDesktopAlert(current, input);
    titles.push(alert?.title ?? null);
    current = next;
  }
  return { titles, memory: current };
}

describe('planDesktopAlert', () => {
  const old = question('old', 60 * MINUTE);

  it('announces the new questions of a poll in one notification, naming the soonest expiry', () => {
    const fresh = [question('a', 30 * MINUTE), question('b', 4 * MINUTE + 1), question('c', null)];
    const first = planDesktopAlert(emptyAlertMemory(), away([old]));
    expect(first.alert).toBeNull();
    const { alert } = planDesktopAlert(first.memory, away([old, ...fresh]));
    expect(alert).toEqual({
      title: '3 new questions; the soonest expires in 4 minutes',
      body: 'Question b?',
      openId: 'b',
    });
    expect(
      planDesktopAlert(first.memory, away([old, question('d', 4 * MINUTE)])).alert?.title,
    ).toBe('1 new question; it expires in 4 minutes');
  });

  it('tells nothing of what arrived while the reviewer was looking, or when another tab tells', () => {
    const { titles } = polls([
      away([old]),
      away([old, question('a', 30 * MINUTE)], NOW, { away: false }),
      away([old, question('a', 30 * MINUTE), question('b', 30 * MINUTE)], NOW, { teller: false }),
      away([old, question('a', 30 * MINUTE), question('b', 30 * MINUTE)]),
    ]);
    expect(titles).toEqual([null, null, null, null]);
  });

  it('tells once of a question with under 5 minutes left', () => {
    const q = question('q', 20 * MINUTE);
    const { titles } = polls([
      away([q]),
      away([q], NOW + 15 * MINUTE + 1),
      away([q], NOW + 17 * MINUTE),
      away([q], NOW + 19 * MINUTE),
    ]);
    expect(titles).toEqual([null, 'A question expires in 5 minutes', null, null]);
  });

  it('never shows two within a minute: what is held back comes with the next one', () => {
    const { titles } = polls([
      away([old]),
      away([old, question('a', 30 * MINUTE)], NOW + 1000),
      away([old, question('a', 30 * MINUTE), question('b', 30 * MINUTE)], NOW + 30_000),
      away(
        [old, question('a', 30 * MINUTE), question('b', 30 * MINUTE), question('c', 40 * MINUTE)],
        NOW + 61_000,
      ),
    ]);
    expect(titles).toEqual([
      null,
      '1 new question; it expires in 30 minutes',
      null,
      '2 new questions; the soonest expires in 29 minutes',
    ]);
  });

  it('says once that the session ended, instead of questions the reviewer cannot open', () => {
    const { titles, memory } = polls([
      away([old]),
      away([old, question('a', 30 * MINUTE)], NOW + MINUTE, { sessionEnded: true }),
      away([old, question('a', 30 * MINUTE)], NOW + 3 * MINUTE, { sessionEnded: true }),
    ]);
    expect(titles).toEqual([null, 'Your session has ended', null]);
    // Signed in again: told again the next time it ends.
    const back = polls(
      [away([old], NOW + 5 * MINUTE), away([old], NOW + 7 * MINUTE, { sessionEnded: true })],
      memory,
    );
    expect(back.titles).toEqual([null, 'Your session has ended']);
  });

  it('does not count expired questions as pending', () => {
    const { titles } = polls([away([old]), away([old, question('gone', -1000)], NOW + 1)]);
    expect(titles).toEqual([null, null]);
  });
});

describe('pendingBadge', () => {
  it('counts live pending questions and turns urgent under 5 minutes', () => {
    expect(pendingBadge(undefined, NOW)).toEqual({
      count: 0,
      urgent: false,
      title: 'Questions',
      changesIn: Number.POSITIVE_INFINITY,
    });
    expect(pendingBadge([question('a', 10 * MINUTE), question('b', null)], NOW)).toEqual({
      count: 2,
      urgent: false,
      title: '(2) Questions',
      // 'a' turns urgent in 5 minutes; 'b' never changes.
      changesIn: 5 * MINUTE,
    });
    expect(pendingBadge([question('a', 4 * MINUTE), question('x', -1)], NOW)).toEqual({
      count: 1,
      urgent: true,
      title: '(1) Expiring soon · Questions',
      // 'a' expires in 4 minutes; 'x' has already.
      changesIn: 4 * MINUTE,
    });
  });

  it('says when the badge next changes: the soonest question to turn urgent or expire', () => {
    const asks = [question('a', 30 * MINUTE), question('b', 7 * MINUTE), question('c', 6 * MINUTE)];
    expect(pendingBadge(asks, NOW).changesIn).toBe(1 * MINUTE);
    // A minute and a half on: 'c' is urgent, and 'b' turns urgent next, half a minute later.
    const later = pendingBadge(asks, NOW + 1.5 * MINUTE);
    expect(later).toMatchObject({ count: 3, urgent: true, changesIn: 0.5 * MINUTE });
    expect(pendingBadge(asks, NOW + 6 * MINUTE)).toMatchObject({ count: 2, changesIn: MINUTE });
  });

  it('reads each question by its own server’s clock', () => {
    const vertesia = { id: 'vertesia', kind: 'vertesia', label: 'Vertesia' } as const;
    // Both due in 10 minutes by the page's clock; Vertesia's server runs 6 minutes ahead.
    const asks = [question('r', 10 * MINUTE), { ...question('v', 10 * MINUTE), source: vertesia }];
    const now = (q: Question) => NOW + (q.source.id === 'vertesia' ? 6 * MINUTE : 0);
    expect(pendingBadge(asks, now)).toMatchObject({ count: 2, urgent: true });
    expect(pendingBadge(asks, (q) => now(q) + 5 * MINUTE)).toMatchObject({ count: 1 });
    const { alert } = planDesktopAlert(
      { ...emptyAlertMemory(), known: new Set(['r', 'v']) },
      { ...away(asks), questionNow: now },
    );
    expect(alert?.title).toBe('A question expires in 4 minutes');
    expect(alert?.openId).toBe('v');
  });
});

describe('usePendingBadge', () => {
  it('retitles the tab when a question turns urgent or expires, with the same list', () => {
    const clock = createManualClock(NOW);
    const wrapper = ({ children }: { children: ReactNode }) =>
      createElement(ClockContext, { value: clock }, children);
    const pending = [question('a', 30 * MINUTE), question('b', 7 * MINUTE)];
    renderHook(() => usePendingBadge(pending), { wrapper });
    expect(document.title).toBe('(2) Questions');
    act(() => clock.advance(MINUTE));
    expect(document.title).toBe('(2) Questions');
    act(() => clock.advance(MINUTE + 1_000));
    expect(document.title).toBe('(2) Expiring soon · Questions');
    act(() => clock.advance(5 * MINUTE));
    expect(document.title).toBe('(1) Questions');
  });
});
