import type { DehydratedState } from '@tanstack/react-query';
import { createContext, use, useSyncExternalStore } from 'react';
import { createIntern } from './intern';

/**
 * What the server's render of the first screen (entry-server.tsx) hands the browser, in a JSON
 * `<script>` next to the HTML it rendered: the lists it read and what it assumed, so that the
 * browser's first render (hydration) is exactly the server's. See docs/server-rendering.md.
 */
export const FIRST_SCREEN_VERSION = 2;
export const FIRST_SCREEN_ELEMENT_ID = 'qi-first-screen';

export type ColorScheme = 'light' | 'dark';
export type Density = 'comfortable' | 'compact';

export interface FirstScreenState {
  version: number;
  /** The time the rows were rendered at: countdowns and "5 min ago" say the same until hydrated. */
  now: number;
  /** Each source's clock minus the server's, as the server's reads of the lists found them (ms). */
  offsets: Record<string, number>;
  /** config.json as the server read it: the browser takes the HTML over only if it reads the same. */
  config: string;
  /** That file's text: the browser that reads the same text takes `config` as it is (no schema). */
  configText?: string;
  /** The lazily loaded parts the server rendered: the browser loads them before it takes over. */
  parts: string[];
  embed: boolean;
  /** The reviewer's colour scheme from their cookie; null when it follows the system's. */
  colorScheme: ColorScheme | null;
  density: Density;
  queries: DehydratedState;
}

/** Preferences kept in cookies as well as localStorage, so the server renders with them. */
export const PREFERENCE_COOKIES = {
  colorScheme: 'qi-color-scheme',
  density: 'qi-density',
} as const;

/**
 * A list as the page carries it: its questions as indices into the state's `records`. The lists
 * of a page overlap (the pending list is most of the unfiltered one, often all of it): each
 * question is sent, parsed and held once, not once per list.
 */
interface SentList {
  questionRecords: number[];
}

/** The state as sent: `queries` with each question list's records moved to `records`. */
interface SentState extends FirstScreenState {
  records?: unknown[];
}

const questionsOf = (data: unknown): unknown[] | null => {
  const questions = (data as { questions?: unknown } | null)?.questions;
  return typeof data === 'object' && data !== null && Array.isArray(questions) ? questions : null;
};

/** `state` with the records its lists share sent once (a record the same to the letter). */
export function packFirstScreen(state: FirstScreenState): SentState {
  const records: unknown[] = [];
  const indexOf = new Map<string, number>();
  const queries = state.queries.queries.map((query) => {
    const questions = questionsOf(query.state.data);
    if (!questions) return query;
    const questionRecords = questions.map((question) => {
      const key = JSON.stringify(question);
      let index = indexOf.get(key);
      if (index === undefined) {
        index = records.push(question) - 1;
        indexOf.set(key, index);
      }
      return index;
    });
    const { questions: _sent, ...rest } = query.state.data as { questions: unknown[] };
    const data: SentList = { ...rest, questionRecords };
    return { ...query, state: { ...query.state, data } };
  });
  return { ...state, records, queries: { ...state.queries, queries } };
}

/** Strings this short V8's JSON.parse shares already; longer ones it makes anew each time. */
const SHARED_BY_PARSE = 10;
/** Values visited at most: an agent's 10,000-level or 1 MB field costs the walk nothing more. */
const SHARE_WALK_LIMIT = 200_000;
/** A record's small values the adapters hand on shared (sources/reflexio/wire.ts, intern.json). */
const SHARED_VALUES = ['source', 'tags', 'scope'];

/**
 * Each repeated value of the records held once, as the adapters that made them hold them: a
 * record's text is in it twice (`questionText` and `args.question`), a scope's hash, its scope and
 * the record's system in every record of that scope, but JSON.parse makes a string or an object of
 * each occurrence. With 500 questions that was about 0.14 MB of the page's heap for as long as it
 * lived (bench/heap-kinds.ts).
 */
function shareRepeats(records: unknown[]): void {
  const intern = createIntern();
  for (const record of records) {
    if (typeof record !== 'object' || record === null) continue;
    const fields = record as Record<string, unknown>;
    for (const key of SHARED_VALUES) if (key in fields) fields[key] = intern.json(fields[key]);
  }
  const stack: unknown[] = [records];
  let visited = 0;
  // The value at `key` of `holder`, held once.
  const share = (holder: Record<string | number, unknown>, key: string | number) => {
    visited++;
    const value = holder[key];
    if (typeof value === 'string') {
      if (value.length > SHARED_BY_PARSE) holder[key] = intern.text(value);
    } else if (typeof value === 'object' && value !== null) stack.push(value);
  };
  while (stack.length > 0 && visited < SHARE_WALK_LIMIT) {
    const holder = stack.pop() as Record<string | number, unknown>;
    // An array by its indices: Object.keys would make a string of each (V8 then keeps a 64 KB
    // cache of number strings for the page's life).
    if (Array.isArray(holder))
      for (let index = 0; index < holder.length; index++) share(holder, index);
    else for (const key of Object.keys(holder)) share(holder, key);
  }
}

/** Runs a task: at once, or later (main.tsx: when the browser is idle, after the take-over). */
export type Schedule = (task: () => void) => void;
const atOnce: Schedule = (task) => task();

/**
 * The lists of a sent state with their questions back (one object per record, shared). Their
 * repeated values are shared by `schedule`: the browser does it once it has taken the page over
 * (done before it, 9-13 ms of the take-over on the bench's 500 questions; they read the same
 * either way).
 */
export function unpackFirstScreen(sent: SentState, schedule = atOnce): FirstScreenState | null {
  const { records, ...state } = sent;
  if (!Array.isArray(records)) return null;
  schedule(() => shareRepeats(records));
  let whole = true;
  const queries = state.queries.queries.map((query) => {
    const data = query.state.data as Partial<SentList> | null;
    if (typeof data !== 'object' || data === null || !Array.isArray(data.questionRecords)) {
      return query;
    }
    const { questionRecords, ...rest } = data;
    const questions = questionRecords.map((index) => records[index]);
    if (questions.some((question) => question === undefined)) whole = false;
    return { ...query, state: { ...query.state, data: { ...rest, questions } } };
  });
  return whole ? { ...state, queries: { ...state.queries, queries } } : null;
}

/** The state as the text of a `<script type="application/json">`: nothing in it ends the element. */
export function serializeFirstScreen(state: FirstScreenState): string {
  return JSON.stringify(packFirstScreen(state))
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The server's state in this page, or null (a page the browser renders alone). */
export function readFirstScreen(doc: Document, schedule = atOnce): FirstScreenState | null {
  const element = doc.getElementById(FIRST_SCREEN_ELEMENT_ID);
  const text = element?.textContent;
  // Read once: the page keeps no second copy of the lists (the element is outside #root).
  element?.remove();
  if (!text) return null;
  try {
    const sent = JSON.parse(text) as SentState;
    return sent.version === FIRST_SCREEN_VERSION ? unpackFirstScreen(sent, schedule) : null;
  } catch {
    return null;
  }
}

/** What the server assumed the page shows (null: no server render, the browser knows best). */
export interface ServerView {
  colorScheme: ColorScheme;
  density: Density;
}

/** What the server's render of `state` assumed: a scheme that follows the system's rendered light. */
export function serverViewOf(state: Pick<FirstScreenState, 'colorScheme' | 'density'>): ServerView {
  return { colorScheme: state.colorScheme ?? 'light', density: state.density };
}

export const ServerViewContext = createContext<ServerView | null>(null);

const noSubscription = () => () => {};

let takenOver = false;
const takenOverListeners = new Set<() => void>();

/**
 * main.tsx: the app runs the page the server drew (data-hydrated is set). What only the browser
 * adds to that page (useTakenOver) renders in a task of its own after this one: not before the
 * click that waited for the take-over.
 */
export function markTakenOver(): void {
  setTimeout(() => {
    takenOver = true;
    for (const listener of takenOverListeners) listener();
  }, 0);
}

const subscribeTakenOver = (listener: () => void) => {
  takenOverListeners.add(listener);
  return () => takenOverListeners.delete(listener);
};

/**
 * False while the page is the server's (on the server, and in the browser until the app has taken
 * its HTML over and a task has passed); true on a page the browser rendered alone. For what the
 * server cannot know and the take-over need not wait for (the exact times in the reviewer's zone).
 */
export function useTakenOver(): boolean {
  const view = use(ServerViewContext);
  const taken = useSyncExternalStore(
    subscribeTakenOver,
    () => takenOver,
    () => false,
  );
  return view === null || taken;
}

/**
 * `client` once the page is the browser's own, and the server's value while the browser takes
 * over the server's HTML (hydration) and on the server: the first render then says what the HTML
 * says, and React renders again with the browser's value right after.
 */
export function useAfterHydration<T>(client: T, server: (view: ServerView) => T): T {
  const view = use(ServerViewContext);
  return useSyncExternalStore(
    noSubscription,
    () => client,
    () => (view ? server(view) : client),
  );
}

/** Sets one preference cookie for the portal's path (a year; read by the server's render only). */
export function rememberPreference(name: string, value: string): void {
  try {
    const path = new URL(document.baseURI).pathname;
    // biome-ignore lint/suspicious/noDocumentCookie: one plain preference; the Cookie Store API is not in every browser the portal supports.
    document.cookie = `${name}=${encodeURIComponent(value)}; Path=${path}; Max-Age=31536000; SameSite=Lax`;
  } catch {
    // No cookies (a sandboxed frame): the server renders with its defaults.
  }
}
