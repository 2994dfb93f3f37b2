/**
 * Answers being typed, kept in localStorage per question and per API, so they survive closing the
 * drawer, reloads, crashes and sign-in round trips. Removed only when the server accepted the
 * answer or the reviewer discards the draft.
 */
export interface Draft {
  text: string;
  savedAt: number;
  /**
   * The reviewer has seen the question closed (expired, cancelled, superseded, gone) with this
   * draft on it: the list no longer marks it, the text stays for them to copy.
   */
  seenClosed?: true;
}

const PREFIX = 'questions-inbox:draft:v1:';
const CHANGE_EVENT = 'questions-inbox:drafts-changed';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function keyFor(sourceKey: string, id: string): string {
  return `${PREFIX}${sourceKey}\u0000${id}`;
}

// Bumped on each change made here and on other tabs' (the `storage` event): with the store's
// length (a `clear()` made elsewhere), it tells when the drafts may have changed.
let version = 0;
let watching = false;

function watchOtherTabs() {
  if (watching) return;
  watching = true;
  window.addEventListener('storage', (event) => {
    if (event.key === null || event.key.startsWith(PREFIX)) version += 1;
  });
}

function notify() {
  version += 1;
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

export function readDraft(sourceKey: string, id: string): Draft | null {
  const raw = storage()?.getItem(keyFor(sourceKey, id));
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<Draft>;
    if (typeof parsed.text !== 'string' || typeof parsed.savedAt !== 'number') return null;
    return parsed.seenClosed === true
      ? { text: parsed.text, savedAt: parsed.savedAt, seenClosed: true }
      : { text: parsed.text, savedAt: parsed.savedAt };
  } catch {
    return null;
  }
}

/**
 * Returns false when the browser refused to store it (quota, private mode). A new text drops the
 * `seenClosed` mark: the list marks it again.
 */
export function writeDraft(
  sourceKey: string,
  id: string,
  text: string,
  now = Date.now(),
  seenClosed?: true,
): boolean {
  const store = storage();
  if (!store) return false;
  try {
    store.setItem(
      keyFor(sourceKey, id),
      JSON.stringify({ text, savedAt: now, seenClosed } satisfies Draft),
    );
    notify();
    return true;
  } catch {
    return false;
  }
}

export function removeDraft(sourceKey: string, id: string): void {
  storage()?.removeItem(keyFor(sourceKey, id));
  notify();
}

/** Questions with a saved draft; `marked` leaves out those the reviewer has seen closed. */
export function draftIds(sourceKey: string, { marked = false } = {}): Set<string> {
  const store = storage();
  const ids = new Set<string>();
  if (!store) return ids;
  const prefix = `${PREFIX}${sourceKey}\u0000`;
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    if (!key?.startsWith(prefix)) continue;
    const id = key.slice(prefix.length);
    if (marked && readDraft(sourceKey, id)?.seenClosed) continue;
    ids.add(id);
  }
  return ids;
}

const snapshots = new Map<string, { version: number; length: number; ids: string }>();

/**
 * The marked draft ids as one sorted string, read again only after a change: the list reads it on
 * every render (useSyncExternalStore), and walking localStorage's keys each time showed in
 * profiles of a keystroke.
 */
export function markedDraftIdsSnapshot(sourceKey: string): string {
  watchOtherTabs();
  const length = storage()?.length ?? 0;
  const known = snapshots.get(sourceKey);
  if (known && known.version === version && known.length === length) return known.ids;
  const ids = [...draftIds(sourceKey, { marked: true })].sort().join('\n');
  snapshots.set(sourceKey, { version, length, ids });
  return ids;
}

/** Fires on this tab's changes and, through the `storage` event, on other tabs'. */
export function subscribeToDrafts(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key.startsWith(PREFIX)) listener();
  };
  window.addEventListener(CHANGE_EVENT, listener);
  window.addEventListener('storage', onStorage);
  return () => {
    window.removeEventListener(CHANGE_EVENT, listener);
    window.removeEventListener('storage', onStorage);
  };
}
