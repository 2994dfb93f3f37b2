import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TabLeader } from '@/lib/tab-leader';
import { decodeTabMessage } from '../utils/tab-message-schema';
import { createSharedPoller, type SharedPoller } from './use-shared-poller';

/** The tabs' BroadcastChannel, delivering at once to every other member. */
function createHub() {
  const members = new Set<{ listeners: Set<(event: MessageEvent) => void> }>();
  return () => {
    const self = { listeners: new Set<(event: MessageEvent) => void>() };
    members.add(self);
    return {
      postMessage(data: unknown) {
        for (const member of members) {
          if (member === self) continue;
          for (const listener of member.listeners) listener({ data } as MessageEvent);
        }
      },
      addEventListener: (_: string, listener: (event: MessageEvent) => void) =>
        self.listeners.add(listener),
      removeEventListener: (_: string, listener: (event: MessageEvent) => void) =>
        self.listeners.delete(listener),
      close: () => members.delete(self),
    } as unknown as BroadcastChannel;
  };
}

function fakeLeader(initially: boolean) {
  let leading = initially;
  const listeners = new Set<() => void>();
  const leader: TabLeader & { become(next: boolean): void } = {
    shared: true,
    isLeader: () => leading,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setWanted: vi.fn(),
    takeOver: vi.fn(),
    dispose: () => listeners.clear(),
    become(next) {
      leading = next;
      for (const listener of listeners) listener();
    },
  };
  return leader;
}

describe('createSharedPoller', () => {
  const pollers: SharedPoller[] = [];
  beforeEach(() => {
    // Date too: a list's `updatedAt` decides whether another tab takes it, and two lists put in
    // within one real millisecond tied (1 run in 5 failed).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    for (const poller of pollers.splice(0)) poller.dispose();
    vi.useRealTimers();
  });

  function tab(hub: () => BroadcastChannel, leading: boolean) {
    const leader = fakeLeader(leading);
    const queryClient = new QueryClient();
    const poller = createSharedPoller({
      name: 'test',
      queryClient,
      baseMs: 10_000,
      leader,
      channel: hub(),
      decode: decodeTabMessage,
    });
    pollers.push(poller);
    return { leader, queryClient, poller };
  }

  it('a tab that takes over says so: the others do not take the lead from it before its first poll', () => {
    const hub = createHub();
    const old = tab(hub, true);
    const heir = tab(hub, false);
    const other = tab(hub, false);
    // The old leader's last list: the next one is due in 10 s.
    old.queryClient.setQueryData(['questions', 'list', { status: 'all' }], {
      questions: [],
      unreadable: [],
      truncated: false,
    });
    vi.advanceTimersByTime(8_000);
    // It closes; the next tab in line gets the lock and polls one interval later.
    old.poller.dispose();
    heir.leader.become(true);
    vi.advanceTimersByTime(9_000);
    expect(other.leader.takeOver).not.toHaveBeenCalled();
    // A leader that stays silent for 1.5 intervals is taken over.
    vi.advanceTimersByTime(7_000);
    expect(other.leader.takeOver).toHaveBeenCalledOnce();
  });

  it('a tab whose own first list restarts the leader’s interval hears when the leader polls next', () => {
    const hub = createHub();
    const leader = tab(hub, true);
    const key = ['questions', 'list', { status: 'all' }];
    const list = (n: number) => ({ questions: [], unreadable: [], truncated: n > 0 });
    // The leader polls: its next poll is due in 10 s.
    leader.queryClient.setQueryData(key, list(0));
    vi.advanceTimersByTime(1_000);
    const opened = tab(hub, false);
    vi.advanceTimersByTime(4_000);
    // Its own first list comes: the leader takes it, and React Query starts the leader's interval
    // again from here (next poll 10 s on, at 15 s).
    opened.queryClient.setQueryData(key, list(1));
    vi.advanceTimersByTime(12_000);
    expect(opened.leader.takeOver).not.toHaveBeenCalled();
  });

  it('asks for the lead once the page first listens, not as it renders', () => {
    const hub = createHub();
    const { leader, poller } = tab(hub, false);
    expect(leader.setWanted).not.toHaveBeenCalled();
    const stop = poller.subscribe(() => {});
    poller.subscribe(() => {});
    expect(leader.setWanted).toHaveBeenCalledOnce();
    expect(leader.setWanted).toHaveBeenCalledWith(true);
    stop();
  });

  it('a tab that opens starts the back-off again', () => {
    const hub = createHub();
    const leader = tab(hub, true);
    const key = ['questions', 'list', { status: 'all' }];
    const list = { questions: [], unreadable: [], truncated: false };
    for (let poll = 0; poll < 6; poll++) leader.queryClient.setQueryData(key, list);
    expect(leader.poller.nextDelay()).toBeGreaterThan(10_000);
    tab(hub, false);
    expect(leader.poller.nextDelay()).toBe(10_000);
  });

  it('a list too deep to write never throws into the cache; the others read it themselves', () => {
    const hub = createHub();
    const leader = tab(hub, true);
    const follower = tab(hub, false);
    const key = ['questions', 'list', { status: 'all' }];
    follower.queryClient.setQueryData(key, { questions: [], unreadable: [], truncated: false });
    const invalidate = vi.spyOn(follower.queryClient, 'invalidateQueries');
    // Deeper than JSON.stringify (and the browser's structured clone) can walk.
    let deep: Record<string, unknown> = {};
    for (let level = 0; level < 200_000; level++) deep = { deep };
    const list = { questions: [], unreadable: [], truncated: false, deep };
    expect(() => leader.queryClient.setQueryData(key, list)).not.toThrow();
    expect(invalidate).toHaveBeenCalledWith({ queryKey: key, exact: true });
  });

  it('drops what another page of the origin posts that is not a message of the portal', () => {
    const hub = createHub();
    const follower = tab(hub, false);
    const key = ['questions', 'list', { status: 'all' }];
    const good = { questions: [], unreadable: [], truncated: false };
    follower.queryClient.setQueryData(key, good);
    const stranger = hub();
    const garbage: unknown[] = [
      { type: 'list', key, data: {}, updatedAt: Date.now() + 1, nextInMs: 1 },
      JSON.stringify({ type: 'list', key, data: {}, updatedAt: Date.now() + 1, nextInMs: 1 }),
      JSON.stringify({ type: 'list', key: ['other'], data: good, updatedAt: 1e15, nextInMs: 1 }),
      JSON.stringify({
        type: 'list',
        key,
        data: { ...good, questions: [{ id: 1 }] },
        updatedAt: 1e15,
        nextInMs: 1,
      }),
      JSON.stringify({ type: 'beat', nextInMs: -5 }),
      '{not json',
      null,
      42,
    ];
    for (const data of garbage) expect(() => stranger.postMessage(data)).not.toThrow();
    expect(follower.queryClient.getQueryData(key)).toBe(good);
  });

  it('answers a flood of refresh requests once', () => {
    const hub = createHub();
    const leader = tab(hub, true);
    const refetch = vi.spyOn(leader.queryClient, 'refetchQueries');
    const stranger = hub();
    for (let i = 0; i < 20; i++) stranger.postMessage(JSON.stringify({ type: 'refresh' }));
    expect(refetch).toHaveBeenCalledOnce();
  });
});
