import { useSyncExternalStore } from 'react';
import { useTakenOver } from './first-screen';

/**
 * The reviewer's choice of desktop notifications and the browser's permission, as one state:
 * `on` only when both say yes. The permission is asked for only when the reviewer turns them on;
 * the choice is remembered in localStorage (per portal origin).
 */
export type DesktopNotificationState = 'unsupported' | 'blocked' | 'off' | 'asking' | 'on';

export interface DesktopNotifications {
  state(): DesktopNotificationState;
  subscribe(listener: () => void): () => void;
  turnOn(): Promise<DesktopNotificationState>;
  turnOff(): void;
  /** Shows one notification; `onClick` runs after the tab was brought to the front. */
  show(message: { title: string; body?: string; tag?: string; onClick?: () => void }): boolean;
}

const CHOICE_KEY = 'questions-inbox:desktop-notifications';

type NotificationApi = Pick<typeof Notification, 'permission' | 'requestPermission'> &
  (new (
    title: string,
    options?: NotificationOptions,
  ) => Notification);

function readChoice(storage: Storage | null): boolean {
  try {
    return storage?.getItem(CHOICE_KEY) === 'on';
  } catch {
    return false;
  }
}

function writeChoice(storage: Storage | null, on: boolean) {
  try {
    if (on) storage?.setItem(CHOICE_KEY, 'on');
    else storage?.removeItem(CHOICE_KEY);
  } catch {
    // Private mode or storage off: the choice lasts for this page.
  }
}

export function createDesktopNotifications(
  api: NotificationApi | null = typeof Notification === 'function' ? Notification : null,
  storage: Storage | null = typeof localStorage === 'undefined' ? null : localStorage,
): DesktopNotifications {
  const listeners = new Set<() => void>();
  let chosen = readChoice(storage);
  let asking = false;
  let last: DesktopNotificationState | null = null;
  // Reading `Notification.permission` is a synchronous round trip to the browser process (it
  // measured 10 ms and more on a loaded machine, on every render of the switch): it is read once,
  // and again when it may have changed, not on every render.
  let permission = api?.permission ?? 'default';

  const compute = (): DesktopNotificationState => {
    if (!api) return 'unsupported';
    if (permission === 'denied') return 'blocked';
    if (asking) return 'asking';
    return chosen && permission === 'granted' ? 'on' : 'off';
  };
  const notify = () => {
    const next = compute();
    if (next === last) return;
    last = next;
    for (const listener of listeners) listener();
  };
  const reread = () => {
    if (api) permission = api.permission;
    notify();
  };
  last = compute();

  // The permission can change in the browser's site settings while the page is open: the
  // Permissions API says so where it can, and coming back to the tab reads it again anyway.
  const watchPermission = () => {
    if (typeof window !== 'undefined') {
      window.addEventListener('focus', reread);
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'visible') reread();
      });
    }
    if (typeof navigator === 'undefined' || !navigator.permissions?.query) return;
    navigator.permissions
      .query({ name: 'notifications' })
      .then((status) => {
        status.addEventListener('change', reread);
      })
      .catch(() => {});
  };
  if (api) watchPermission();

  return {
    state: () => last as DesktopNotificationState,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async turnOn() {
      chosen = true;
      writeChoice(storage, true);
      if (api && api.permission === 'default') {
        asking = true;
        notify();
        try {
          await api.requestPermission();
        } catch {
          // Old browsers take a callback instead; the permission is read again below either way.
        } finally {
          asking = false;
        }
      }
      reread();
      return compute();
    },
    turnOff() {
      chosen = false;
      writeChoice(storage, false);
      reread();
    },
    show({ title, body, tag, onClick }) {
      // A notification is rare: read the permission fresh for it.
      reread();
      if (!api || compute() !== 'on') return false;
      try {
        const notification = new api(title, { body, tag, icon: 'favicon.svg' });
        notification.onclick = () => {
          window.focus();
          notification.close();
          onClick?.();
        };
        return true;
      } catch {
        // Chrome on Android allows notifications only from a Service Worker: nothing is shown.
        return false;
      }
    },
  };
}

let shared: DesktopNotifications | null = null;

/** The page's one instance (created on first use). */
export function desktopNotifications(): DesktopNotifications {
  shared ??= createDesktopNotifications();
  return shared;
}

const noSubscription = () => () => {};
const off = (): DesktopNotificationState => 'off';

/**
 * The page's desktop notifications: off on a page the server draws (it knows no browser; most
 * reviewers have them off) until the browser has taken that page over, where the page's instance
 * is made only then: reading the browser's permission is a synchronous round trip to the browser
 * process (2 ms and more) that the take-over need not wait for.
 */
export function useDesktopNotificationState(): DesktopNotificationState {
  const notifications = useTakenOver() ? desktopNotifications() : null;
  return useSyncExternalStore(
    notifications?.subscribe ?? noSubscription,
    notifications?.state ?? off,
    notifications?.state ?? off,
  );
}
