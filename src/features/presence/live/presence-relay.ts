import * as z from 'zod/mini';
import { lazySchema } from '@/lib/lazy-schema';
import { type PresenceTab, sendPresence } from '../api/requests';
import { createStreamLeader, readTabMessage, type StreamLeader } from './team-live';

/** A heartbeat while a question is open: ≤ 1 request per 10 s per browser; none while none is. */
export const HEARTBEAT_MS = 10_000;
/** A tab not heard from for this long has gone without saying so (closed, frozen, crashed). */
const TAB_SILENT_MS = 25_000;
/** The most tabs one message carries (the server's cap). */
const TABS_MAX = 16;
/** A new leader waits this long for the other tabs to say what they have open, then sends once. */
const GATHER_MS = 300;

export interface PresenceRef {
  source: string;
  id: string;
}

/**
 * Presence for one browser, however many tabs: every tab tells the tab holding the
 * `questions-inbox:presence` lock what it has open, over a BroadcastChannel, and that tab alone
 * sends, all tabs in one request: at once when a tab opens or closes a question or its reviewer
 * types, else one heartbeat every 10 s. Each tab repeats its own state every 10 s over the
 * channel, so a new leader (the old one's tab closed) learns it, and a leader whose own timers a
 * background tab slows still sends when another tab's repeat reaches it. Without Web Locks or
 * BroadcastChannel every tab sends for itself.
 */
export interface PresenceRelay {
  /** This tab has `question` open; `typing`: its reviewer just typed (never what). */
  open(question: PresenceRef, typing?: boolean): void;
  /** This tab closed `question`; `leaving`: the page is going away (the request outlives it). */
  close(question: PresenceRef, leaving?: boolean): void;
  dispose(): void;
}

type Channel = Pick<
  BroadcastChannel,
  'postMessage' | 'addEventListener' | 'removeEventListener' | 'close'
>;

export interface PresenceRelayOptions {
  leader?: StreamLeader;
  channel?: Channel | null;
  send?: (tabs: PresenceTab[], keepalive: boolean) => void;
  now?: () => number;
  tab?: string;
}

const MAX_MESSAGE_CHARS = 4_000;
const refSchema = () =>
  z.object({ source: z.string().check(z.maxLength(64)), id: z.string().check(z.maxLength(300)) });
// Built with the first message from another tab, not when the part loads.
const channelMessage = lazySchema(() =>
  z.union([
    z.object({ kind: z.literal('hello') }),
    z.object({
      kind: z.union([z.literal('open'), z.literal('tick'), z.literal('close')]),
      tab: z.string().check(z.maxLength(64)),
      question: refSchema(),
      typing: z.boolean(),
    }),
  ]),
);
type Message = z.infer<ReturnType<typeof channelMessage>>;
type TabMessage = Exclude<Message, { kind: 'hello' }>;

const shareable = () =>
  typeof navigator !== 'undefined' &&
  typeof navigator.locks?.request === 'function' &&
  typeof BroadcastChannel === 'function';

const newTabId = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : Math.random().toString(36).slice(2);

export function createPresenceRelay({
  leader = createStreamLeader('questions-inbox:presence'),
  channel = shareable() ? new BroadcastChannel('questions-inbox:presence') : null,
  send = (tabs, keepalive) => void sendPresence(tabs, keepalive),
  now = Date.now,
  tab = newTabId(),
}: PresenceRelayOptions = {}): PresenceRelay {
  /** What this tab has open. */
  let mine: PresenceRef | null = null;
  let ownTick: ReturnType<typeof setTimeout> | null = null;
  // The leader's view of every tab (its own too), and the closes it has still to send.
  const tabs = new Map<string, { question: PresenceRef; typing: boolean; heardAt: number }>();
  let leaves: PresenceTab[] = [];
  let lastSent = Number.NEGATIVE_INFINITY;
  let heartbeat: ReturnType<typeof setTimeout> | null = null;
  /** Set while a new leader waits for the other tabs' answers to hello. */
  let gather: ReturnType<typeof setTimeout> | null = null;

  const post = (message: Message) => {
    try {
      channel?.postMessage(JSON.stringify(message));
    } catch {
      // The page is going away.
    }
  };

  const flush = (urgent: boolean, keepalive = false) => {
    const at = now();
    if (!urgent && (gather !== null || at - lastSent < HEARTBEAT_MS)) return;
    for (const [id, entry] of tabs) if (at - entry.heardAt > TAB_SILENT_MS) tabs.delete(id);
    const open = [...tabs]
      .sort(([, a], [, b]) => b.heardAt - a.heardAt)
      .slice(0, TABS_MAX - Math.min(leaves.length, TABS_MAX - 1))
      .map(([id, entry]) => ({ tab: id, question: entry.question, typing: entry.typing }));
    const message = [...leaves.slice(-(TABS_MAX - open.length)), ...open];
    leaves = [];
    // Typing is said once; the server keeps it for a few seconds.
    for (const entry of tabs.values()) entry.typing = false;
    if (heartbeat) clearTimeout(heartbeat);
    heartbeat = null;
    if (message.length === 0) return;
    lastSent = at;
    send(message, keepalive);
    if (tabs.size > 0) heartbeat = setTimeout(() => flush(false), HEARTBEAT_MS);
  };

  const handle = (message: TabMessage, keepalive = false) => {
    if (message.kind === 'close') {
      const entry = tabs.get(message.tab);
      // A late close of a question the tab has since left (j/k to the next one) changes nothing.
      if (entry && entry.question.id === message.question.id) tabs.delete(message.tab);
      leaves.push({ tab: message.tab, question: null, left: message.question });
      urgent(keepalive);
      return;
    }
    const before = tabs.get(message.tab);
    const same =
      before?.question.id === message.question.id &&
      before.question.source === message.question.source;
    tabs.set(message.tab, {
      question: message.question,
      typing: message.typing || (same && before.typing),
      heardAt: now(),
    });
    if (message.kind === 'open') urgent(keepalive);
    else flush(false);
  };

  // Changes in one task go as one message: j/k closes one question and opens the next in one
  // render. Leaving the page cannot wait: it goes at once, with keepalive.
  let queued = false;
  const urgent = (keepalive: boolean) => {
    if (keepalive) {
      flush(true, true);
      return;
    }
    if (queued) return;
    queued = true;
    queueMicrotask(() => {
      queued = false;
      flush(true);
    });
  };

  const report = (message: TabMessage, keepalive = false) => {
    if (leader.isLeader()) handle(message, keepalive);
    else post(message);
  };

  const tick = () => {
    if (ownTick) clearTimeout(ownTick);
    ownTick = null;
    if (!mine) return;
    ownTick = setTimeout(() => {
      if (mine) report({ kind: 'tick', tab, question: mine, typing: false });
      tick();
    }, HEARTBEAT_MS);
  };

  const onMessage = (event: MessageEvent<unknown>) => {
    const message = readTabMessage(event.data, channelMessage(), MAX_MESSAGE_CHARS);
    if (!message) return;
    if (message.kind === 'hello') {
      if (mine) report({ kind: 'tick', tab, question: mine, typing: false });
      return;
    }
    if (leader.isLeader()) handle(message);
  };
  channel?.addEventListener('message', onMessage);

  const unsubscribe = leader.subscribe(() => {
    if (!leader.isLeader()) return;
    // Taking over: what the other tabs have open comes in answer to hello, then one message.
    if (mine) tabs.set(tab, { question: mine, typing: false, heardAt: now() });
    post({ kind: 'hello' });
    gather = setTimeout(() => {
      gather = null;
      flush(true);
    }, GATHER_MS);
  });

  return {
    open(question, typing = false) {
      const changed = mine?.id !== question.id || mine.source !== question.source;
      mine = question;
      report({ kind: changed ? 'open' : typing ? 'open' : 'tick', tab, question, typing });
      if (changed) tick();
    },
    close(question, leaving = false) {
      if (mine && mine.id === question.id && mine.source === question.source) mine = null;
      tick();
      report({ kind: 'close', tab, question, typing: false }, leaving);
    },
    dispose() {
      for (const timer of [ownTick, heartbeat, gather]) if (timer) clearTimeout(timer);
      unsubscribe();
      channel?.removeEventListener('message', onMessage);
      channel?.close();
      leader.dispose();
    },
  };
}

let relay: PresenceRelay | null = null;

/** The page's one relay (created on first use, kept for the page's life). */
export function presenceRelay(): PresenceRelay {
  relay ??= createPresenceRelay();
  return relay;
}
