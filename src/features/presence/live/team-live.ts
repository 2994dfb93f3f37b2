import type { QueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { ACTED_EVENT, type ActedEventDetail } from '@/config/acted';
import { LISTS_EVENT, setLiveLists } from '@/config/live-lists';
import { HOLDERS_EVENT, type HoldersEventDetail } from '@/config/shell-context';
import { lazySchema } from '@/lib/lazy-schema';
import { teamKeys } from '../api/queries';
import { teamRoot } from '../api/requests';
import { type Connection, type TeamState, teamStateSchema } from '../api/schemas';
import { claimOn, serverOffset, shortName } from '../utils/team-policy';

/**
 * One Server-Sent Events stream per browser: the tab holding the `questions-inbox:team` lock
 * opens it and passes every snapshot to the other tabs over a BroadcastChannel (JSON text, read
 * with the same schema as the stream). A dropped stream is said quietly (`reconnecting`) and
 * opened again, a second later at first and up to a minute later as it keeps failing.
 */
export interface TeamLive {
  /** Server minus browser time, from the last snapshot (ms). */
  offsetMs(): number;
  dispose(): void;
}

const MAX_MESSAGE_CHARS = 2_000_000;
// Built with the first message from another tab, not when the part loads.
const channelMessage = lazySchema(() =>
  z.union([
    z.object({ type: z.literal('hello') }),
    z.object({ type: z.literal('state'), state: teamStateSchema(), connection: z.string() }),
    z.object({ type: z.literal('connection'), connection: z.string() }),
    z.object({ type: z.literal('lists'), data: z.string() }),
  ]),
);
const connections = ['connecting', 'live', 'reconnecting', 'absent'] as const;
const asConnection = (value: string): Connection =>
  (connections as readonly string[]).includes(value) ? (value as Connection) : 'reconnecting';

/**
 * A message from another tab of this browser: JSON text no longer than `maxChars`, read with
 * `schema`; null for anything else (another page of the origin may post garbage).
 */
export function readTabMessage<T>(
  data: unknown,
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
  maxChars: number,
): T | null {
  if (typeof data !== 'string' || data.length > maxChars) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = schema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** Who holds the stream among the tabs: the tab holding the Web Lock (until it closes). */
export interface StreamLeader {
  isLeader(): boolean;
  subscribe(listener: () => void): () => void;
  dispose(): void;
}

const shareable = () =>
  typeof navigator !== 'undefined' &&
  typeof navigator.locks?.request === 'function' &&
  typeof BroadcastChannel === 'function';

/**
 * Every tab asks for the lock and keeps it once it has it: a closed (or discarded) tab's lock
 * goes to the next tab waiting. Without Web Locks every tab leads on its own.
 */
export function createStreamLeader(name: string): StreamLeader {
  const listeners = new Set<() => void>();
  let leader = !shareable();
  const abort = new AbortController();
  let release: (() => void) | null = null;
  if (!leader) {
    navigator.locks
      .request(name, { signal: abort.signal }, () => {
        leader = true;
        for (const listener of listeners) listener();
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      })
      .catch(() => {});
  }
  return {
    isLeader: () => leader,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose() {
      abort.abort();
      release?.();
      leader = false;
    },
  };
}

export interface TeamLiveOptions {
  queryClient: QueryClient;
  leader?: StreamLeader;
  channel?: BroadcastChannel | null;
  openStream?: (url: string) => EventSource;
  /** Where there is no portal server: checked once before the first stream. */
  probe?: () => Promise<boolean>;
}

export function createTeamLive({
  queryClient,
  leader = createStreamLeader('questions-inbox:team'),
  channel = shareable() ? new BroadcastChannel('questions-inbox:team') : null,
  openStream = (url) => new EventSource(url, { withCredentials: true }),
  probe,
}: TeamLiveOptions): TeamLive {
  let offset = 0;
  let stream: EventSource | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let failures = 0;
  let last: TeamState | null = null;
  let connection: Connection = 'connecting';
  let absent = false;

  const post = (message: z.infer<ReturnType<typeof channelMessage>>) => {
    try {
      channel?.postMessage(JSON.stringify(message));
    } catch {
      // The page is going away.
    }
  };
  const setConnection = (next: Connection) => {
    connection = next;
    queryClient.setQueryData(teamKeys.connection(), next);
    // Only while the stream is up do the lists come from it (see config/live-lists.ts).
    if (next !== 'live') setLiveLists(null);
    else if (last?.watch) setLiveLists(last.watch);
  };
  // A change of the server's copy of the lists: this page's lists apply it (features/questions).
  const tellLists = (data: string) => {
    if (typeof document !== 'undefined') {
      document.dispatchEvent(new CustomEvent(LISTS_EVENT, { detail: data }));
    }
  };
  // What others did through the portal: told to this page's parts once each (not what was
  // already there when the page first heard the stream: the page loaded after it).
  let actedSeen: Set<string> | null = null;
  const tellActed = (state: TeamState) => {
    const me = queryClient.getQueryData<string | null>(teamKeys.me()) ?? null;
    const entries = state.acted ?? [];
    const keys = entries.map((entry) => `${entry.sourceId}\n${entry.questionId}\n${entry.at}`);
    const fresh = actedSeen
      ? entries.filter((entry, i) => !actedSeen?.has(keys[i] as string) && entry.reviewer !== me)
      : [];
    actedSeen = new Set(keys);
    if (fresh.length === 0 || typeof document === 'undefined') return;
    const detail: ActedEventDetail = fresh.map(({ sourceId, questionId }) => ({
      sourceId,
      questionId,
    }));
    document.dispatchEvent(new CustomEvent(ACTED_EVENT, { detail }));
  };
  const apply = (state: TeamState) => {
    offset = serverOffset(state, Date.now());
    last = state;
    queryClient.setQueryData(teamKeys.state(), state);
    tellActed(state);
    if (connection === 'live') setLiveLists(state.watch ?? null);
  };

  const close = () => {
    stream?.close();
    stream = null;
    if (retry) clearTimeout(retry);
    retry = null;
  };

  const open = () => {
    close();
    if (!leader.isLeader() || absent) return;
    const source = openStream(new URL('events', teamRoot()).href);
    stream = source;
    source.addEventListener('open', () => {
      failures = 0;
      setConnection('live');
      post({ type: 'connection', connection: 'live' });
    });
    source.addEventListener('team', (event) => {
      const text = (event as MessageEvent<unknown>).data;
      if (typeof text !== 'string' || text.length > MAX_MESSAGE_CHARS) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return;
      }
      const state = teamStateSchema().safeParse(parsed);
      if (!state.success) return;
      apply(state.data);
      if (connection !== 'live') setConnection('live');
      post({ type: 'state', state: state.data, connection: 'live' });
    });
    source.addEventListener('questions', (event) => {
      const text = (event as MessageEvent<unknown>).data;
      if (typeof text !== 'string' || text.length > MAX_MESSAGE_CHARS) return;
      tellLists(text);
      post({ type: 'lists', data: text });
    });
    source.addEventListener('error', () => {
      if (stream !== source) return;
      setConnection('reconnecting');
      post({ type: 'connection', connection: 'reconnecting' });
      // The browser reconnects by itself while it can; a closed stream (a 5xx, a 404) is
      // opened again here, later each time.
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        stream = null;
        failures += 1;
        const delay = Math.min(60_000, 1000 * 2 ** Math.min(failures - 1, 6));
        retry = setTimeout(() => void start(), delay);
      }
    });
  };

  const start = async () => {
    if (!leader.isLeader()) return;
    if (typeof EventSource !== 'function') {
      // A browser without Server-Sent Events (or a test's DOM): nothing live, said once.
      absent = true;
      setConnection('absent');
      return;
    }
    if (probe && !absent && connection === 'connecting') {
      absent = !(await probe().catch(() => true));
      if (absent) {
        setConnection('absent');
        post({ type: 'connection', connection: 'absent' });
        return;
      }
    }
    open();
  };

  const onMessage = (event: MessageEvent<unknown>) => {
    const data = readTabMessage(event.data, channelMessage(), MAX_MESSAGE_CHARS);
    if (!data) return;
    if (data.type === 'hello') {
      if (leader.isLeader()) {
        if (last) post({ type: 'state', state: last, connection });
        else post({ type: 'connection', connection });
      }
      return;
    }
    if (leader.isLeader()) return;
    if (data.type === 'lists') {
      tellLists(data.data);
      return;
    }
    if (data.type === 'state') apply(data.state);
    setConnection(asConnection(data.connection));
  };
  channel?.addEventListener('message', onMessage);

  // A bulk action asks, before its confirmation, which of its questions someone else holds. Here,
  // with the page's team state, from the first part of the team's on screen: a row that says
  // "claimed by bob" means the confirmation can say so too (the Claimed filter, which answered
  // before, mounts later, and a quick reviewer's first bulk action met nobody to answer it).
  const onHolders = (event: Event) => {
    const { questions, holders } = (event as CustomEvent<HoldersEventDetail>).detail;
    const state = queryClient.getQueryData<TeamState | null>(teamKeys.state()) ?? null;
    const me = queryClient.getQueryData<string | null>(teamKeys.me()) ?? null;
    const now = Date.now() + offset;
    for (const question of questions) {
      const claim = claimOn(state, question, now);
      if (claim && claim.reviewer !== me) holders.set(question, shortName(claim.reviewer));
    }
  };
  if (typeof document !== 'undefined') document.addEventListener(HOLDERS_EVENT, onHolders);

  const unsubscribe = leader.subscribe(() => {
    if (leader.isLeader()) void start();
    else close();
  });
  if (leader.isLeader()) void start();
  else post({ type: 'hello' });

  return {
    offsetMs: () => offset,
    dispose() {
      close();
      unsubscribe();
      channel?.removeEventListener('message', onMessage);
      if (typeof document !== 'undefined') document.removeEventListener(HOLDERS_EVENT, onHolders);
      channel?.close();
      leader.dispose();
    },
  };
}

const lives = new WeakMap<QueryClient, TeamLive>();

/** The page's one live connection (created on first use, kept for the page's life). */
export function teamLive(queryClient: QueryClient, probe?: () => Promise<boolean>): TeamLive {
  let live = lives.get(queryClient);
  if (!live) {
    live = createTeamLive({ queryClient, probe });
    lives.set(queryClient, live);
  }
  return live;
}
