import type { DehydratedState } from '@tanstack/react-query';
import { createContext, use, useSyncExternalStore } from 'react';

/**
 * What the server's render of the first screen (entry-server.tsx) hands the browser, in a JSON
 * `<script>` next to the HTML it rendered: the lists it read and what it assumed, so that the
 * browser's first render (hydration) is exactly the server's. See docs/server-rendering.md.
 */
export const FIRST_SCREEN_VERSION = 1;
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

/** The state as the text of a `<script type="application/json">`: nothing in it ends the element. */
export function serializeFirstScreen(state: FirstScreenState): string {
  return JSON.stringify(state)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The server's state in this page, or null (a page the browser renders alone). */
export function readFirstScreen(doc: Document): FirstScreenState | null {
  const element = doc.getElementById(FIRST_SCREEN_ELEMENT_ID);
  const text = element?.textContent;
  // Read once: the page keeps no second copy of the lists (the element is outside #root).
  element?.remove();
  if (!text) return null;
  try {
    const state = JSON.parse(text) as FirstScreenState;
    return state.version === FIRST_SCREEN_VERSION ? state : null;
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
