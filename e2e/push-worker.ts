// The portal's Web Push worker (public/push-sw.js) in a browser profile of its own, as a reviewer's
// is (Chromium has no Web Push in a private window): registered as the bell's menu registers it,
// sent messages through the DevTools protocol (ServiceWorker.deliverPushMessage), and clicked by a
// `notificationclick` event dispatched in the worker, which its own handler serves (only a person
// can click a real notification).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page, type Worker } from '@playwright/test';
import { findChromium } from '../scripts/find-chromium.ts';
import { expect } from './fixtures';

/** The worker's global scope, as far as these journeys use it (the DOM types have no worker's). */
interface WorkerScope {
  registration: {
    getNotifications(): Promise<Notification[]>;
    showNotification(title: string, options?: NotificationOptions): Promise<void>;
  };
  dispatchEvent(event: Event): boolean;
  /** The worker's showNotification calls not settled yet (see `watchShows`). */
  pushShowsInFlight?: Set<Promise<void>>;
}
declare const NotificationEvent: new (
  type: string,
  init: { notification: Notification; action?: string },
) => Event;

export interface Shown {
  title: string;
  body: string;
  actions: string[];
}

export interface PushProfile {
  browser: BrowserContext;
  /** The inbox tab, with the worker registered and in control of it. */
  page: Page;
  worker: Worker;
  deliver(payload: string): Promise<void>;
  /** The notifications showing now. */
  shown(): Promise<Shown[]>;
  /** A click on the notification (`action` names a button on it, as the platform passes it). */
  click(action?: string): Promise<void>;
  close(): Promise<void>;
}

export async function openPushProfile(
  baseURL: string,
  /** `reviewer`: the name given in the portal's "You are …" (no SSO proxy on this server). */
  options: { tenant: string; reviewer?: string },
): Promise<PushProfile> {
  const origin = new URL(baseURL).origin;
  const profile = mkdtempSync(path.join(tmpdir(), 'qi-push-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: findChromium() ?? undefined,
    args: [
      '--disable-gpu',
      '--no-first-run',
      '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
    ],
    baseURL,
  });
  const close = async () => {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  };
  try {
    await browser.grantPermissions(['notifications'], { origin });
    await browser.addCookies([{ name: 'mock_tenant', value: options.tenant, url: baseURL }]);
    if (options.reviewer) {
      await browser.addInitScript(
        (name) => localStorage.setItem('qi.reviewer', name),
        options.reviewer,
      );
    }
    // A tab of its own holds the DevTools session, so the inbox tab can be closed.
    const holder = browser.pages()[0] ?? (await browser.newPage());
    const cdp = await browser.newCDPSession(holder);
    const registrations = new Map<string, string>();
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: updated }) => {
      for (const r of updated) {
        if (r.isDeleted) registrations.delete(r.scopeURL);
        else registrations.set(r.scopeURL, r.registrationId);
      }
    });
    // Which registrations have an activated, running worker: a message delivered before that is lost.
    const ready = new Set<string>();
    cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
      for (const v of versions) {
        if (v.status === 'activated' && v.runningStatus === 'running') ready.add(v.registrationId);
      }
    });
    await cdp.send('ServiceWorker.enable');
    const page = await browser.newPage();
    await page.goto('questions');
    // The bell's menu has loaded (after the list): the page listens for the worker's word.
    await expect(page.getByRole('button', { name: 'Notification options' })).toBeVisible();
    // As the menu registers it before asking the push service for a subscription; once it has
    // taken this tab over (clients.claim), it is ready for messages.
    await page.evaluate(async () => {
      await navigator.serviceWorker.register(new URL('push-sw.js', document.baseURI).href);
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) {
        await new Promise((resolve) =>
          navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }),
        );
      }
    });
    const scope = new URL('./', new URL('questions', baseURL)).href;
    await expect.poll(() => registrations.get(scope)).toBeTruthy();
    await expect.poll(() => ready.has(registrations.get(scope) as string)).toBe(true);
    const worker = browser.serviceWorkers().find((w) => w.url().endsWith('/push-sw.js'));
    if (!worker) throw new Error('the portal’s worker is not running');
    await worker.evaluate(watchShows);
    return {
      browser,
      page,
      worker,
      close,
      deliver: async (payload) => {
        await cdp.send('ServiceWorker.deliverPushMessage', {
          origin,
          registrationId: registrations.get(scope) as string,
          data: payload,
        });
      },
      shown: () =>
        worker.evaluate(async () => {
          const scopeGlobal = self as unknown as WorkerScope;
          const pending = scopeGlobal.pushShowsInFlight;
          if (!pending) throw new Error('the worker restarted: its notifications are not watched');
          // Checked and read in one step: no show can start in between.
          while (pending.size > 0) await Promise.allSettled([...pending]);
          return (await scopeGlobal.registration.getNotifications()).map((n) => ({
            title: n.title,
            body: n.body,
            actions: (n as Notification & { actions: { title: string }[] }).actions.map(
              (a) => a.title,
            ),
          }));
        }),
      click: (action) =>
        worker.evaluate(async (chosen) => {
          const scopeGlobal = self as unknown as WorkerScope;
          const pending = scopeGlobal.pushShowsInFlight;
          if (!pending) throw new Error('the worker restarted: its notifications are not watched');
          while (pending.size > 0) await Promise.allSettled([...pending]);
          const [notification] = await scopeGlobal.registration.getNotifications();
          if (!notification) throw new Error('no notification');
          scopeGlobal.dispatchEvent(
            new NotificationEvent('notificationclick', {
              notification,
              ...(chosen ? { action: chosen } : {}),
            }),
          );
        }, action),
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Runs in the worker: notes each showNotification until it settles, so that the journeys read the
 * notifications only when none is being shown. Chromium's getNotifications() also tidies its
 * notification database: a notification it has stored but not yet put on display (the moment
 * between the two, while it looks the worker's registration up) counts as closed, and is deleted
 * for good. A read racing the worker's `push` handler (the message is delivered without waiting
 * for it) so lost the notification it was waiting for. Behaviour is unchanged: the worker's own
 * call still shows it.
 */
function watchShows() {
  const scopeGlobal = self as unknown as WorkerScope;
  if (scopeGlobal.pushShowsInFlight) return;
  const pending = new Set<Promise<void>>();
  scopeGlobal.pushShowsInFlight = pending;
  const { registration } = scopeGlobal;
  const show = registration.showNotification.bind(registration);
  registration.showNotification = (title, options) => {
    const showing = show(title, options);
    const settled = () => pending.delete(showing);
    pending.add(showing);
    showing.then(settled, settled);
    return showing;
  };
}
