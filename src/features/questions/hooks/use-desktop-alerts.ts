import { useEffect, useEffectEvent, useMemo, useReducer, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useRuntimeConfig } from '@/config/runtime-config';
import { serverNow, useClock, useHasPassed } from '@/lib/clock';
import { desktopNotifications, useDesktopNotificationState } from '@/lib/desktop-notifications';
import { whenIdleAfterFirstScreen } from '@/lib/idle';
import { useSession } from '@/lib/session-store';
import type { Question } from '../api/schemas';
import type { AlertMemory } from '../utils/desktop-alerts';
import { questionPath } from '../utils/paths';
import { pendingBadge } from '../utils/pending-badge';
import { useLeading, useSharedPoller } from './use-shared-poller';

// The badge is a nicety: a chunk that cannot be downloaded (offline, the session ended at the SSO
// proxy) leaves the icon as it is, and the next count tries again. Never an uncaught error.
const favicon = () => import('@/lib/favicon-badge').catch(() => null);

/** A question crosses the 5-minute line between polls too: looked at this often while told. */
const URGENT_CHECK_MS = 15_000;

/**
 * The tab's title and icon count the pending questions and turn urgent under 5 minutes left.
 * Counted when the list changes and when a question turns urgent or expires, not on every render
 * or tick: with 10,000 questions, counting took longer than opening a question.
 */
export function usePendingBadge(pending: Question[] | undefined) {
  const clock = useClock();
  const [looks, lookAgain] = useReducer((n: number) => n + 1, 0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `looks` is when to count again.
  const { count, urgent, title, changesAt } = useMemo(() => {
    const badge = pendingBadge(pending, (q) => serverNow(clock, q.source.id));
    // A millisecond after the change, so that the count then sees it.
    const changesAt = Number.isFinite(badge.changesIn) ? clock.now() + badge.changesIn + 1 : null;
    return { ...badge, changesAt };
  }, [pending, clock, looks]);
  const changed = useHasPassed(changesAt);
  useEffect(() => {
    if (changed) lookAgain();
  }, [changed]);
  useEffect(() => {
    document.title = title;
  }, [title]);
  // The icon's drawing loads when the browser is idle after the first screen, so it never
  // competes with the list (started with the first rows, it did: 0.7 KB more JS before the list
  // showed, in some loads); the title says the count at once.
  useEffect(() => {
    let live = true;
    const cancel = whenIdleAfterFirstScreen(() => {
      void favicon().then((module) => live && module?.setFaviconBadge(count, urgent));
    });
    return () => {
      live = false;
      cancel();
    };
  }, [count, urgent]);
  useEffect(() => () => void favicon().then((module) => module?.setFaviconBadge(0, false)), []);
}

const away = () => document.visibilityState === 'hidden' || !document.hasFocus();

/**
 * Desktop notifications for a reviewer who is away (another tab, another app), told by the tab
 * that polls for the browser's tabs (so three tabs give one notification): see planDesktopAlert.
 * While they are on, that tab keeps polling when hidden, every `notifyPollIntervalMs`.
 */
export function useDesktopAlerts(pending: Question[] | undefined) {
  const on = useDesktopNotificationState() === 'on';
  const poller = useSharedPoller();
  const leading = useLeading(poller);
  const { notifyPollIntervalMs } = useRuntimeConfig();
  const { state: session } = useSession();
  const clock = useClock();
  const navigate = useNavigate();
  const memory = useRef<AlertMemory | null>(null);
  // What to tell loads only once they are on: most reviewers never turn them on.
  const [planner, setPlanner] = useState<typeof import('../utils/desktop-alerts') | null>(null);
  useEffect(() => {
    if (!on || planner) return;
    let live = true;
    import('../utils/desktop-alerts').then(
      (module) => live && setPlanner(module),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [on, planner]);

  useEffect(() => {
    poller.setHiddenInterval(on ? notifyPollIntervalMs : null);
    return () => poller.setHiddenInterval(null);
  }, [poller, on, notifyPollIntervalMs]);

  const evaluate = useEffectEvent(() => {
    if (!planner) return;
    const { alert, memory: next } = planner.planDesktopAlert(
      memory.current ?? planner.emptyAlertMemory(),
      {
        pending,
        now: clock.now(),
        questionNow: (question) => serverNow(clock, question.source.id),
        sessionEnded: session === 'ended',
        away: away(),
        teller: on && leading,
      },
    );
    memory.current = next;
    if (!alert) return;
    const { openId } = alert;
    desktopNotifications().show({
      title: alert.title,
      body: alert.body,
      // Where every tab tells (no Web Locks), the same alert replaces itself instead of stacking.
      tag: `questions-inbox:${openId ?? 'session'}`,
      onClick: openId ? () => navigate(questionPath(openId)) : undefined,
    });
  });

  // Once per poll (a new list), and when the session, the choice or the teller changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: these are what it runs on, not what it reads.
  useEffect(() => {
    evaluate();
  }, [pending, session, on, leading, planner]);

  useEffect(() => {
    if (!on || !leading) return;
    const timer = setInterval(() => evaluate(), URGENT_CHECK_MS);
    return () => clearInterval(timer);
  }, [on, leading]);
}
