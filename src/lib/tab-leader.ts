/**
 * One leader among the tabs of a page in one browser, by Web Locks: the tab holding the lock named
 * `name` leads until it lets go (hidden, frozen, closed: the browser frees a closed tab's locks),
 * and the next tab waiting for it takes over. Where Web Locks or BroadcastChannel is missing,
 * every tab leads on its own (`shared` is false), as if it were alone.
 */
export interface TabLeader {
  readonly shared: boolean;
  isLeader(): boolean;
  subscribe(listener: () => void): () => void;
  /** Whether this tab wants to lead now (e.g. visible); waiting tabs queue for the lock. */
  setWanted(wanted: boolean): void;
  /** Takes the lock from a leader that stopped answering (frozen without letting go). */
  takeOver(): void;
  dispose(): void;
}

type Locks = Pick<LockManager, 'request'>;

export function canShareBetweenTabs(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    typeof navigator.locks?.request === 'function' &&
    typeof BroadcastChannel === 'function'
  );
}

export function createTabLeader(
  name: string,
  locks: Locks | null = canShareBetweenTabs() ? navigator.locks : null,
): TabLeader {
  const listeners = new Set<() => void>();
  let leader = locks === null;
  let wanted = false;
  let disposed = false;
  // The lock request this tab has out (waiting or held), and how to let go of it.
  let current: { abort: AbortController; release: (() => void) | null } | null = null;

  const set = (next: boolean) => {
    if (leader === next) return;
    leader = next;
    for (const listener of listeners) listener();
  };

  function acquire(steal: boolean) {
    if (!locks || current || disposed) return;
    const request = { abort: new AbortController(), release: null as (() => void) | null };
    current = request;
    // A steal cannot be aborted while waiting (it does not wait); a plain request can.
    const options: LockOptions = steal ? { steal: true } : { signal: request.abort.signal };
    locks
      .request(name, options, () => {
        if (current !== request) return undefined;
        set(true);
        return new Promise<void>((resolve) => {
          request.release = resolve;
        });
      })
      .catch(() => {
        // Aborted while waiting, or the lock was stolen from this tab.
      })
      .finally(() => {
        if (current !== request) return;
        current = null;
        set(false);
        if (wanted) acquire(false);
      });
  }

  function letGo() {
    const request = current;
    if (!request) return;
    if (request.release) request.release();
    else request.abort.abort();
  }

  return {
    shared: locks !== null,
    isLeader: () => leader,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setWanted(next) {
      wanted = next;
      if (!locks) return;
      if (next) acquire(false);
      else letGo();
    },
    takeOver() {
      if (!locks || leader || !wanted) return;
      const waiting = current;
      current = null;
      waiting?.abort.abort();
      acquire(true);
    },
    dispose() {
      disposed = true;
      wanted = false;
      letGo();
      listeners.clear();
    },
  };
}
