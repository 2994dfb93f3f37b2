// This device's Web Push subscription: the portal's service worker (public/push-sw.js) registered
// at the portal's own address, the browser's push subscription under the server's VAPID key, and
// what the reviewer chose for this device (kept here too, so the menu shows it without asking).
import type { PushChoice } from '../api/requests';

const CHOICE_KEY = 'questions-inbox:push-choice';
/** How long the browser's push service may take to register this device (it can hang for good). */
const SUBSCRIBE_WAIT_MS = 20_000;

/** Whether this browser can receive Web Push at all (Safari on iOS: only from the Home Screen). */
export function pushSupported(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    'serviceWorker' in navigator &&
    typeof window !== 'undefined' &&
    'PushManager' in window &&
    'Notification' in window
  );
}

/** The portal's address (the `<base>` the page was served under): the worker's scope. */
const scope = () => new URL('./', document.baseURI);

export async function currentRegistration(): Promise<ServiceWorkerRegistration | null> {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration(scope().href);
  // Another worker at this address (the static demo's) is not the portal's.
  const script = registration?.active?.scriptURL ?? registration?.installing?.scriptURL ?? '';
  return registration && script.endsWith('/push-sw.js') ? registration : null;
}

/** This device's subscription, if it has one. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await currentRegistration();
  return registration ? registration.pushManager.getSubscription() : null;
}

function activated(registration: ServiceWorkerRegistration): Promise<void> {
  if (registration.active) return Promise.resolve();
  const worker = registration.installing ?? registration.waiting;
  if (!worker) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const changed = () => {
      if (worker.state === 'activated') {
        worker.removeEventListener('statechange', changed);
        resolve();
      } else if (worker.state === 'redundant') {
        worker.removeEventListener('statechange', changed);
        reject(new PushSetupError('worker', 'The notification helper could not start.'));
      }
    };
    worker.addEventListener('statechange', changed);
  });
}

/** Why turning it on failed, in words for the reviewer, and which step. */
export class PushSetupError extends Error {
  constructor(
    readonly step: 'permission' | 'worker' | 'push-service',
    message: string,
  ) {
    super(message);
  }
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const padded = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const text = atob(padded + '='.repeat((4 - (padded.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/**
 * Asks the browser's permission (if it has not been given), registers the worker and subscribes
 * under the server's key. A subscription made under another key (the deployment's keys changed)
 * is replaced.
 */
export async function subscribe(publicKey: string): Promise<PushSubscription> {
  const permission =
    Notification.permission === 'default'
      ? await Notification.requestPermission()
      : Notification.permission;
  if (permission !== 'granted') {
    throw new PushSetupError(
      'permission',
      'This browser blocks notifications from this site. Allow them in the site settings (the icon left of the address), then turn this on again.',
    );
  }
  let registration: ServiceWorkerRegistration;
  try {
    registration = await navigator.serviceWorker.register(
      new URL('push-sw.js', document.baseURI).href,
      { scope: scope().pathname },
    );
    await activated(registration);
  } catch (error) {
    if (error instanceof PushSetupError) throw error;
    throw new PushSetupError(
      'worker',
      `The notification helper could not be installed (${error instanceof Error ? error.message : String(error)}). Reload the page and try again.`,
    );
  }
  const key = keyBytes(publicKey);
  const existing = await registration.pushManager.getSubscription();
  if (existing) {
    const used = existing.options.applicationServerKey;
    const same =
      used !== null &&
      used.byteLength === key.byteLength &&
      new Uint8Array(used).every((byte, i) => byte === key[i]);
    if (same) return existing;
    await existing.unsubscribe();
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new PushSetupError(
            'push-service',
            `This browser's push service did not answer within ${SUBSCRIBE_WAIT_MS / 1000} seconds (a company network may block it). Try again later; until then an open inbox tab still tells you.`,
          ),
        ),
      SUBSCRIBE_WAIT_MS,
    );
  });
  try {
    return await Promise.race([
      registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }),
      late,
    ]);
  } catch (error) {
    if (error instanceof PushSetupError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    // Chromium refuses push in a private window, and says only "permission denied".
    if (/permission denied/i.test(reason)) {
      throw new PushSetupError(
        'push-service',
        'This browser does not allow push notifications in this window (a private or incognito window, or a browser policy). Open the portal in a normal window, then turn this on again.',
      );
    }
    throw new PushSetupError(
      'push-service',
      `This browser could not register with its push service (${reason}). Check the connection (a company network may block it), then turn this on again.`,
    );
  } finally {
    clearTimeout(timer);
  }
}

export function readChoice(): PushChoice {
  try {
    const saved = JSON.parse(localStorage.getItem(CHOICE_KEY) ?? 'null') as PushChoice | null;
    if (saved && ['all', 'some', 'claimed', 'escalations'].includes(saved.kind)) {
      return saved.kind === 'some'
        ? {
            kind: 'some',
            systems: Array.isArray(saved.systems) ? saved.systems.map(String).slice(0, 20) : [],
            tags: Array.isArray(saved.tags) ? saved.tags.map(String).slice(0, 50) : [],
          }
        : { kind: saved.kind };
    }
  } catch {
    // Unreadable or blocked storage: the default.
  }
  return { kind: 'all' };
}

export function writeChoice(choice: PushChoice): void {
  try {
    localStorage.setItem(CHOICE_KEY, JSON.stringify(choice));
  } catch {
    // Kept on the server all the same; only this menu forgets it.
  }
}
