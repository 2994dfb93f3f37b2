import { type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useRuntimeConfig } from '@/config/runtime-config';
import { nextPollDelay } from '@/lib/poll-schedule';
import { createTabLeader, type TabLeader } from '@/lib/tab-leader';
import { questionKeys } from '../api/queries';
import type { QuestionList } from '../api/schemas';
import { useQuestionSource } from '../api/source';
import { encodeTabMessage, type TabMessage } from '../utils/tab-messages';

/** The slowest the lists are polled while nothing changes. */
export const MAX_POLL_MS = 60_000;
/** A follower takes over when the leader's next result is this much overdue. */
const OVERDUE_FACTOR = 1.5;

/** The leader answers another tab's "refresh" or "hello" at most this often. */
export const MIN_CHANNEL_ANSWER_MS = 2_000;

/**
 * The tabs of one portal (one API root) in one browser share one poller: the tab holding the lock
 * polls the lists and sends each result to the others, which put it into their cache and do not
 * poll the lists themselves (they still fetch what only they need: a question's detail). Results a
 * tab fetched itself (after an action, on first load) are shared the same way.
 */
export interface SharedPoller {
  readonly shared: boolean;
  isLeader(): boolean;
  subscribe(listener: () => void): () => void;
  /** When the leader polls next (ms), backing off while nothing changes and nobody types. */
  nextDelay(): number;
  /** Something happened that makes a fresh list worth having now (focus, an action, an expiry). */
  refreshNow(): void;
  /** Keep leading (and polling) while hidden, e.g. for desktop notifications; `null` when not. */
  setHiddenInterval(ms: number | null): void;
  pollsWhileHidden(): boolean;
  dispose(): void;
}

type Decode = (data: unknown) => TabMessage | null;

/**
 * Reads what arrives on the channel with tab-message-schema.ts, fetched with the first message
 * (a follower's, usually a second or later after the page painted): the schema is no part of the
 * first download. Messages that arrive while it loads are read in the order they came.
 */
function lazyDecode(): (data: unknown) => TabMessage | null | Promise<TabMessage | null> {
  let decode: Decode | null = null;
  let loading: Promise<Decode> | null = null;
  return (data) => {
    if (decode) return decode(data);
    loading ??= import('../utils/tab-message-schema').then(({ decodeTabMessage }) => {
      decode = decodeTabMessage;
      return decodeTabMessage;
    });
    return loading.then((loaded) => loaded(data)).catch(() => null);
  };
}

interface PollerOptions {
  name: string;
  queryClient: QueryClient;
  baseMs: number;
  leader?: TabLeader;
  channel?: BroadcastChannel | null;
  /** How what arrives is read (tests pass tab-message-schema.ts's decoder itself). */
  decode?: (data: unknown) => TabMessage | null | Promise<TabMessage | null>;
}

function isListKey(key: QueryKey): boolean {
  return key[0] === questionKeys.all[0] && key[1] === 'list';
}

export function createSharedPoller({
  name,
  queryClient,
  baseMs,
  leader = createTabLeader(`questions-inbox:poller:${name}`),
  channel = leader.shared ? new BroadcastChannel(`questions-inbox:lists:${name}`) : null,
  decode = lazyDecode(),
}: PollerOptions): SharedPoller {
  const listeners = new Set<() => void>();
  const lastData = new Map<string, unknown>();
  let unchangedPolls = 0;
  let lastInputAt = Number.NEGATIVE_INFINITY;
  let hiddenIntervalMs: number | null = null;
  let applying = false;
  let overdue: ReturnType<typeof setTimeout> | null = null;
  const notify = () => {
    for (const listener of listeners) listener();
  };

  const visible = () => typeof document === 'undefined' || document.visibilityState === 'visible';
  const typing = () => performance.now() - lastInputAt < baseMs;

  function nextDelay(): number {
    if (!visible() && hiddenIntervalMs !== null) return hiddenIntervalMs;
    return nextPollDelay({
      baseMs,
      maxMs: Math.max(baseMs, MAX_POLL_MS),
      unchangedPolls,
      typing: typing(),
    });
  }

  // Posting never throws into the cache's listeners: a throw there failed the fetch or the
  // answer that had just succeeded ("Something went wrong").
  const post = (message: TabMessage) => {
    if (!channel) return;
    try {
      channel.postMessage(encodeTabMessage(message));
    } catch {
      // A closed channel (the page is going away): nothing to tell.
    }
  };
  // Any page of the origin can post on the channel: what it asks of the leader is rate-limited.
  let lastAnswerAt = Number.NEGATIVE_INFINITY;
  const mayAnswer = () => {
    const now = performance.now();
    if (now - lastAnswerAt < MIN_CHANNEL_ANSWER_MS) return false;
    lastAnswerAt = now;
    return true;
  };

  function shareCachedLists() {
    for (const query of queryClient.getQueryCache().findAll({ queryKey: questionKeys.lists() })) {
      const data = query.state.data as QuestionList | undefined;
      if (data) {
        post({
          type: 'list',
          key: query.queryKey,
          data,
          updatedAt: query.state.dataUpdatedAt,
          nextInMs: nextDelay(),
        });
      }
    }
  }

  function expectLeader(inMs: number) {
    if (overdue) clearTimeout(overdue);
    overdue = null;
    if (!leader.shared || leader.isLeader()) return;
    overdue = setTimeout(() => {
      // No result for 1.5 intervals: the leader is frozen or gone without letting go.
      if (visible() || hiddenIntervalMs !== null) leader.takeOver();
    }, inMs * OVERDUE_FACTOR);
  }

  const unsubscribeCache = queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated') return;
    const { queryKey, state } = event.query;
    if (!isListKey(queryKey)) return;
    if (event.action.type !== 'success' || applying) {
      // React Query starts a polled query's interval again on every change of its state (a fetch
      // starting or failing, another tab's list put in): the leader's next poll moves, and the
      // others must hear it, or they take the lead from a leader that is only later than it said.
      if (leader.shared && leader.isLeader()) post({ type: 'beat', nextInMs: nextDelay() });
      return;
    }
    const hash = event.query.queryHash;
    // Structural sharing keeps the same object when a poll brings nothing new.
    if (lastData.has(hash)) {
      if (lastData.get(hash) === state.data) unchangedPolls++;
      else unchangedPolls = 0;
    }
    lastData.set(hash, state.data);
    post({
      type: 'list',
      key: queryKey,
      data: state.data as QuestionList,
      updatedAt: state.dataUpdatedAt,
      nextInMs: nextDelay(),
    });
  });

  const onMessage = (event: MessageEvent<unknown>) => {
    const decoded = decode(event.data);
    if (decoded instanceof Promise) void decoded.then(handle);
    else handle(decoded);
  };
  const handle = (message: TabMessage | null) => {
    if (message === null) return;
    if (message.type === 'list') {
      const query = queryClient.getQueryCache().find({ queryKey: message.key, exact: true });
      if (!query || query.state.dataUpdatedAt < message.updatedAt) {
        applying = true;
        try {
          queryClient.setQueryData(message.key, message.data, { updatedAt: message.updatedAt });
        } finally {
          applying = false;
        }
      }
      expectLeader(message.nextInMs);
    } else if (message.type === 'invalidate') {
      // Too large or too deep to send: this tab reads it from the server itself.
      if (!leader.isLeader())
        void queryClient.invalidateQueries({ queryKey: message.key, exact: true });
      expectLeader(message.nextInMs);
    } else if (message.type === 'beat') {
      expectLeader(message.nextInMs);
    } else if (leader.isLeader() && mayAnswer()) {
      if (message.type === 'hello') {
        // A tab opened: the reviewer is here, so the back-off starts again.
        unchangedPolls = 0;
        notify();
        shareCachedLists();
      } else refreshLists();
    }
  };
  channel?.addEventListener('message', onMessage);

  function refreshLists() {
    unchangedPolls = 0;
    notify();
    void queryClient.refetchQueries({ queryKey: questionKeys.lists(), type: 'active' });
  }

  const wantLead = () => visible() || hiddenIntervalMs !== null;
  const onVisibility = () => {
    leader.setWanted(wantLead());
    notify();
  };
  // A frozen or discarded tab cannot poll: it lets go so that another one takes over at once.
  const onFreeze = () => leader.setWanted(false);
  const onResume = () => leader.setWanted(wantLead());
  const onFocus = () => {
    // Focus refetches in the leader (React Query's refetchOnWindowFocus); a follower asks for it.
    if (leader.isLeader()) {
      unchangedPolls = 0;
      notify();
    } else post({ type: 'refresh' });
  };
  const onInput = () => {
    const wasTyping = typing();
    lastInputAt = performance.now();
    // After the event, not in it: this listener runs (capture) before React's onChange, and a
    // re-render from here would put the controlled box's old value back first: the first letter
    // typed after a quiet spell was lost.
    if (!wasTyping && unchangedPolls > 0) setTimeout(notify, 0);
  };
  const unsubscribeLeader = leader.subscribe(() => {
    if (leader.isLeader()) {
      if (overdue) clearTimeout(overdue);
      overdue = null;
      // The others still wait on the old leader's last "next in": without word from the new one
      // before that runs out (its first poll is up to one interval away), one would take over.
      post({ type: 'beat', nextInMs: nextDelay() });
    } else {
      post({ type: 'hello' });
      expectLeader(nextDelay());
    }
    notify();
  });
  if (typeof document !== 'undefined') {
    document.addEventListener('visibilitychange', onVisibility);
    document.addEventListener('freeze', onFreeze);
    document.addEventListener('resume', onResume);
    document.addEventListener('input', onInput, true);
    window.addEventListener('focus', onFocus);
    window.addEventListener('pagehide', onFreeze);
    window.addEventListener('pageshow', onResume);
  }
  if (leader.shared && !leader.isLeader()) {
    post({ type: 'hello' });
    expectLeader(nextDelay());
  }
  // The lead is asked for once the page listens (its first subscriber, in an effect), not as the
  // page renders: asked for then, the answer came while the app took the server's page over, and
  // the inbox page rendered again within it (10 ms, before a click on a row could open it).
  let asked = false;

  return {
    shared: leader.shared,
    isLeader: () => leader.isLeader(),
    subscribe(listener) {
      listeners.add(listener);
      if (!asked) {
        asked = true;
        leader.setWanted(wantLead());
      }
      return () => listeners.delete(listener);
    },
    nextDelay,
    refreshNow() {
      if (leader.isLeader()) refreshLists();
      else post({ type: 'refresh' });
    },
    pollsWhileHidden: () => hiddenIntervalMs !== null,
    setHiddenInterval(ms) {
      hiddenIntervalMs = ms;
      leader.setWanted(wantLead());
      notify();
    },
    dispose() {
      unsubscribeCache();
      unsubscribeLeader();
      if (overdue) clearTimeout(overdue);
      channel?.removeEventListener('message', onMessage);
      channel?.close();
      leader.dispose();
      if (typeof document !== 'undefined') {
        document.removeEventListener('visibilitychange', onVisibility);
        document.removeEventListener('freeze', onFreeze);
        document.removeEventListener('resume', onResume);
        document.removeEventListener('input', onInput, true);
        window.removeEventListener('focus', onFocus);
        window.removeEventListener('pagehide', onFreeze);
        window.removeEventListener('pageshow', onResume);
      }
      listeners.clear();
    },
  };
}

const pollers = new WeakMap<QueryClient, Map<string, SharedPoller>>();

/** The page's one shared poller for the current source (created on first use). */
export function useSharedPoller(): SharedPoller {
  const queryClient = useQueryClient();
  const source = useQuestionSource();
  const { pollIntervalMs } = useRuntimeConfig();
  const [poller] = useState(() => {
    let byName = pollers.get(queryClient);
    if (!byName) {
      byName = new Map();
      pollers.set(queryClient, byName);
    }
    let existing = byName.get(source.key);
    if (!existing) {
      existing = createSharedPoller({ name: source.key, queryClient, baseMs: pollIntervalMs });
      byName.set(source.key, existing);
    }
    return existing;
  });
  return poller;
}

/** Whether this tab polls the lists (it leads, or tabs cannot share), re-rendering when that changes. */
export function useLeading(poller: SharedPoller): boolean {
  const read = () => poller.isLeader();
  return useSyncExternalStore(poller.subscribe, read, read);
}

/** Re-renders when the schedule may have changed (typing, a refresh), so the timer is re-read. */
export function usePollVersion(poller: SharedPoller): number {
  const [version, setVersion] = useState(0);
  useEffect(() => poller.subscribe(() => setVersion((v) => v + 1)), [poller]);
  return version;
}
