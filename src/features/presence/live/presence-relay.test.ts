import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PresenceTab } from '../api/requests';
import { createPresenceRelay, HEARTBEAT_MS, type PresenceRelay } from './presence-relay';
import type { StreamLeader } from './team-live';

/** Tabs of one browser: a channel that hands each message to the other tabs, as a task. */
function browser() {
  const listeners = new Map<number, (event: MessageEvent<unknown>) => void>();
  let next = 0;
  const sent: { tabs: PresenceTab[]; keepalive: boolean; from: string }[] = [];
  const relays: PresenceRelay[] = [];

  function tab(name: string, leads: boolean) {
    const me = next++;
    const leader = new FakeLeader(leads);
    const channel = {
      postMessage(data: unknown) {
        for (const [id, listener] of listeners)
          if (id !== me) setTimeout(() => listener(new MessageEvent('message', { data })), 0);
      },
      addEventListener(_type: string, listener: (event: MessageEvent<unknown>) => void) {
        listeners.set(me, listener);
      },
      removeEventListener() {
        listeners.delete(me);
      },
      close() {
        listeners.delete(me);
      },
    } as unknown as BroadcastChannel;
    const relay = createPresenceRelay({
      leader,
      channel,
      tab: name,
      send: (tabs, keepalive) => sent.push({ tabs, keepalive, from: name }),
    });
    relays.push(relay);
    return { relay, leader };
  }
  const dispose = () => {
    for (const relay of relays) relay.dispose();
  };
  return { tab, sent, dispose };
}

class FakeLeader implements StreamLeader {
  private listeners = new Set<() => void>();
  constructor(private leading: boolean) {}
  isLeader = () => this.leading;
  subscribe(listener: () => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  take() {
    this.leading = true;
    for (const listener of this.listeners) listener();
  }
  dispose() {
    this.leading = false;
  }
}

const q = (id: string) => ({ source: 'reflexio', id });
const open = (sent: { tabs: PresenceTab[] }) =>
  sent.tabs
    .filter((entry) => entry.question)
    .map((entry) => `${entry.tab}:${entry.question?.id}${entry.typing ? ' typing' : ''}`)
    .sort();

describe('presence relay', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends for every tab of the browser from the leading tab, one heartbeat per 10 s', async () => {
    const b = browser();
    const first = b.tab('A', true);
    const second = b.tab('B', false);
    first.relay.open(q('q1'));
    await vi.advanceTimersByTimeAsync(0);
    second.relay.open(q('q2'));
    await vi.advanceTimersByTimeAsync(0);
    // Each opening goes at once (seen by others within the 3 s the issue allows).
    expect(b.sent.map(open)).toEqual([['A:q1'], ['A:q1', 'B:q2']]);
    expect(b.sent.every((sent) => sent.from === 'A')).toBe(true);

    b.sent.length = 0;
    await vi.advanceTimersByTimeAsync(60_000);
    // Both tabs in every heartbeat; never more than one request per 10 s.
    expect(b.sent.length).toBe(6);
    for (const sent of b.sent) expect(open(sent)).toEqual(['A:q1', 'B:q2']);
    b.dispose();
  });

  it('says typing once, at once, and the close of a tab as a leave', async () => {
    const b = browser();
    const first = b.tab('A', true);
    const second = b.tab('B', false);
    first.relay.open(q('q1'));
    second.relay.open(q('q2'));
    await vi.advanceTimersByTimeAsync(0);
    b.sent.length = 0;
    second.relay.open(q('q2'), true);
    await vi.advanceTimersByTimeAsync(0);
    expect(b.sent.map(open)).toEqual([['A:q1', 'B:q2 typing']]);
    await vi.advanceTimersByTimeAsync(HEARTBEAT_MS);
    expect(open(b.sent[1] as { tabs: PresenceTab[] })).toEqual(['A:q1', 'B:q2']);

    b.sent.length = 0;
    second.relay.close(q('q2'), true);
    await vi.advanceTimersByTimeAsync(0);
    expect(b.sent).toHaveLength(1);
    expect(b.sent[0]?.tabs).toContainEqual({ tab: 'B', question: null, left: q('q2') });
    expect(open(b.sent[0] as { tabs: PresenceTab[] })).toEqual(['A:q1']);
    b.dispose();
  });

  it('sends nothing while no tab has a question open', async () => {
    const b = browser();
    const first = b.tab('A', true);
    b.tab('B', false);
    first.relay.open(q('q1'));
    await vi.advanceTimersByTimeAsync(0);
    first.relay.close(q('q1'));
    await vi.advanceTimersByTimeAsync(0);
    const count = b.sent.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(b.sent.length).toBe(count);
    b.dispose();
  });

  it('moving to the next question (j/k) is one message: the leave, then the next one', async () => {
    const b = browser();
    const first = b.tab('A', true);
    first.relay.open(q('q1'));
    await vi.advanceTimersByTimeAsync(0);
    b.sent.length = 0;
    first.relay.close(q('q1'));
    first.relay.open(q('q2'));
    await vi.advanceTimersByTimeAsync(0);
    expect(b.sent).toHaveLength(1);
    expect(b.sent[0]?.tabs).toEqual([
      { tab: 'A', question: null, left: q('q1') },
      { tab: 'A', question: q('q2'), typing: false },
    ]);
    b.dispose();
  });

  it('a new leader gathers what the other tabs have open and sends it in one message', async () => {
    const b = browser();
    const first = b.tab('A', true);
    const second = b.tab('B', false);
    const third = b.tab('C', false);
    first.relay.open(q('q1'));
    second.relay.open(q('q2'));
    third.relay.open(q('q3'));
    await vi.advanceTimersByTimeAsync(0);
    // A's tab closes; B takes the lock.
    first.relay.close(q('q1'), true);
    first.relay.dispose();
    b.sent.length = 0;
    second.leader.take();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(b.sent).toHaveLength(1);
    expect(b.sent[0]?.from).toBe('B');
    expect(open(b.sent[0] as { tabs: PresenceTab[] })).toEqual(['B:q2', 'C:q3']);
    b.dispose();
  });

  it('without a channel each tab sends for itself', async () => {
    const sent: PresenceTab[][] = [];
    const relay = createPresenceRelay({
      leader: new FakeLeader(true),
      channel: null,
      tab: 'solo',
      send: (tabs) => sent.push(tabs),
    });
    relay.open(q('q1'));
    await vi.advanceTimersByTimeAsync(30_000);
    expect(sent).toHaveLength(4);
    relay.dispose();
  });
});
