import { useSyncExternalStore } from 'react';

/**
 * Where the portal server watches the systems itself, the team's live stream carries each change
 * of its copy of their lists; this module is where the stream's part (features/presence) and the
 * lists (features/questions) meet, neither importing the other.
 *
 * `LISTS_EVENT` is dispatched on `document` with each change (`detail`: the stream's message, JSON
 * text: `{source, version, units: [{id, record}], removed}` or `{source, version, reload: true}`).
 */
export const LISTS_EVENT = 'questions-inbox:lists';

export interface LiveLists {
  /** The sources the server watches (their lists come from its copy, changes on the stream). */
  sources: readonly string[];
  /** The server's read interval (s), for the `?` help. */
  intervalSeconds: number;
  /** The copy's version of each source when the stream said so last. */
  versions: Readonly<Record<string, number>>;
}

let current: LiveLists | null = null;
const listeners = new Set<() => void>();

/** Said by the stream's part: what is watched while the stream is up; null while it is down. */
export function setLiveLists(next: LiveLists | null): void {
  const same =
    next !== null &&
    current !== null &&
    next.intervalSeconds === current.intervalSeconds &&
    next.sources.join('\n') === current.sources.join('\n');
  current = next;
  if (same) return;
  for (const listener of listeners) listener();
}

export function liveLists(): LiveLists | null {
  return current;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * Whether every one of `sourceIds` is watched by the server and its stream is up: then the lists
 * need no polling (a change arrives on the stream within a second of the server seeing it).
 */
export function useListsLive(sourceIds: readonly string[]): boolean {
  const read = () => {
    const live = current;
    return live !== null && sourceIds.every((id) => live.sources.includes(id));
  };
  return useSyncExternalStore(subscribe, read, read);
}

/** What is watched now (the `?` help says how the lists stay fresh). */
export function useLiveLists(): LiveLists | null {
  return useSyncExternalStore(subscribe, liveLists, liveLists);
}
