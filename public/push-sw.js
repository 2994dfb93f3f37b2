// The portal's service worker for Web Push (docs/notifications.md): registered only when a reviewer
// turns on "Also when the inbox is closed" for this device. It shows what the portal server sends
// (server/notify/web-push.ts pushPayload) and, on a click, opens the question in the inbox tab
// already open (which the page routes to, keeping its state) or in a new one. It handles no
// requests: the page works the same with it or without it.

const OPEN_MESSAGE = 'questions-inbox:open';
const TITLE_MAX = 200;
const BODY_MAX = 400;

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

/** A path under this worker's scope (the portal's address); anything else is the inbox. */
function within(path) {
  const scope = self.registration.scope;
  if (typeof path !== 'string') return new URL('questions', scope).href;
  const target = new URL(path, scope);
  return target.href.startsWith(scope) ? target.href : new URL('questions', scope).href;
}

const text = (value, max) => (typeof value === 'string' ? value.slice(0, max) : '');

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  if (typeof data !== 'object' || data === null) data = {};
  const title = text(data.title, TITLE_MAX) || 'A question is waiting';
  const href = within(data.path);
  event.waitUntil(
    self.registration.showNotification(title, {
      body: text(data.body, BODY_MAX),
      // One notification per message: a retried message replaces itself instead of stacking.
      tag: text(data.id, 100) || undefined,
      icon: new URL('favicon.svg', self.registration.scope).href,
      data: { href },
      actions: [{ action: 'open', title: 'Open' }],
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data;
  const href = within(data && typeof data.href === 'string' ? data.href : null);
  event.waitUntil(openInbox(href));
});

/** How long an open inbox tab has to say it heard before it is sent to the question instead. */
const HEARD_WAIT_MS = 1500;

/** Whether the tab's page routes to `href` itself (it answers on the channel when it does). */
function told(client, href) {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(false), HEARD_WAIT_MS);
    channel.port1.onmessage = () => {
      clearTimeout(timer);
      resolve(true);
    };
    client.postMessage({ type: OPEN_MESSAGE, href }, [channel.port2]);
  });
}

/**
 * The inbox tab already open goes to the question: its page routes there (keeping its state), or,
 * if its page does not answer (still loading), the tab is sent there. No tab open: a new one.
 */
async function openInbox(href) {
  const scope = self.registration.scope;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const inbox = windows.find((client) => client.url.startsWith(scope));
  if (!inbox) {
    await self.clients.openWindow(href);
    return;
  }
  if (!(await told(inbox, href))) {
    try {
      await inbox.navigate(href);
    } catch {
      await self.clients.openWindow(href);
      return;
    }
  }
  try {
    await inbox.focus();
  } catch {
    // Only a click may bring a window forward; the tab still went to the question.
  }
}
