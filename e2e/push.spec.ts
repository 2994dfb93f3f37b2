// Notifications when the inbox is closed (issue 38, the browser's part): the bell's menu, and the
// portal's service worker (public/push-sw.js) showing what the server sends and opening the
// question when the notification is clicked.
//
// What this machine cannot do: register with a real push service (no internet; Chromium's push
// service is Google's), so the subscription's way through the server is tested in
// server/notify/web-push.test.ts against a stand-in that decrypts, and here the message is
// delivered to the worker with the DevTools protocol's ServiceWorker.deliverPushMessage, built by
// the server's own code (buildNotice, pushPayload). A notification can only be clicked by a person:
// the click is a `notificationclick` event dispatched in the worker, which its own handler serves.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { findChromium } from '../scripts/find-chromium.ts';
import { buildNotice } from '../server/notify/message.ts';
import { pushPayload } from '../server/notify/web-push.ts';
import { drawer, expect, row, test } from './fixtures';

/** The worker's global scope, as far as these journeys use it (the DOM types have no worker's). */
interface WorkerScope {
  registration: { getNotifications(): Promise<Notification[]> };
  dispatchEvent(event: Event): boolean;
}
declare const NotificationEvent: new (
  type: string,
  init: { notification: Notification; action?: string },
) => Event;

test('the bell’s menu offers “Also when the inbox is closed”, and says plainly why this window cannot have it', async ({
  page,
  context,
  baseURL,
}) => {
  if (!baseURL) throw new Error('baseURL is not set');
  await context.grantPermissions(['notifications'], { origin: new URL(baseURL).origin });
  await page.goto('questions');
  const options = page.getByRole('button', { name: 'Notification options' });
  await options.click();
  const menu = page.getByRole('dialog', { name: 'Notification options' });
  const closed = menu.getByRole('switch', { name: 'Also when the inbox is closed' });
  await expect(closed).not.toBeChecked();
  await expect(menu.getByRole('radio', { name: 'All new questions' })).toBeChecked();
  // The choice is kept for this device even before it is turned on.
  await menu.getByRole('radio', { name: 'Escalations only (about to expire, unclaimed)' }).check();
  // Playwright's browser window is a private one, where Chromium refuses Web Push.
  await closed.click({ force: true });
  await expect(menu.getByRole('alert')).toContainText(
    'This browser does not allow push notifications in this window',
  );
  await expect(closed).not.toBeChecked();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(options).toBeFocused();
  await options.click();
  await expect(
    menu.getByRole('radio', { name: 'Escalations only (about to expire, unclaimed)' }),
  ).toBeChecked();
});

test('a push from the server shows the system, the agent, the question and the time left; a click opens the question in the open inbox', async ({
  mock,
  baseURL,
}) => {
  if (!baseURL) throw new Error('baseURL is not set');
  const origin = new URL(baseURL).origin;
  await mock.reset('empty');
  const asked = await mock.ask({
    question: 'E2E: rotate the signing key before it lapses?',
    expires_in_seconds: 600,
  });
  // A browser profile of its own, as a reviewer's is: Chromium has no Web Push in a private window.
  const profile = mkdtempSync(path.join(tmpdir(), 'qi-push-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: findChromium() ?? undefined,
    args: ['--disable-gpu', '--no-first-run'],
    baseURL,
  });
  try {
    await browser.grantPermissions(['notifications'], { origin });
    await browser.addCookies([{ name: 'mock_tenant', value: mock.tenant, url: baseURL }]);
    const page = browser.pages()[0] ?? (await browser.newPage());
    const cdp = await browser.newCDPSession(page);
    const registrations = new Map<string, string>();
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: updated }) => {
      for (const r of updated) {
        if (r.isDeleted) registrations.delete(r.scopeURL);
        else registrations.set(r.scopeURL, r.registrationId);
      }
    });
    await cdp.send('ServiceWorker.enable');
    await page.goto('questions');
    await expect(row(page, asked.id)).toBeVisible();
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
    const worker = browser.serviceWorkers().find((w) => w.url().endsWith('/push-sw.js'));
    if (!worker) throw new Error('the portal’s worker is not running');

    const notice = buildNotice({
      id: 7,
      occasion: 'new',
      route: 'devices',
      receiver: 'devices',
      questions: [
        {
          sourceId: 'reflexio',
          questionId: asked.id,
          kind: 'reflexio',
          asked: asked.question_text,
          agent: 'billing-agent',
          user: null,
          tool: null,
          tags: [],
          expiresAt: new Date(Date.now() + 630_000).toISOString(),
          open: true,
          claimed: false,
        },
      ],
      systemNames: new Map([['reflexio', 'Reflexio']]),
      publicUrl: null,
      now: Date.now(),
    });
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin,
      registrationId: registrations.get(scope) as string,
      data: pushPayload(notice),
    });
    const shown = () =>
      worker.evaluate(async () =>
        (await (self as unknown as WorkerScope).registration.getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
        })),
      );
    await expect.poll(shown).toEqual([
      {
        title: 'New question from billing-agent (Reflexio)',
        body: `billing-agent on Reflexio · 10 min left: ${asked.question_text}`,
      },
    ]);

    // Clicked: the open inbox tab goes to the question, its list and state kept.
    await worker.evaluate(async () => {
      const scopeGlobal = self as unknown as WorkerScope;
      const [notification] = await scopeGlobal.registration.getNotifications();
      if (!notification) throw new Error('no notification');
      scopeGlobal.dispatchEvent(new NotificationEvent('notificationclick', { notification }));
    });
    await expect(page).toHaveURL(new RegExp(`/questions/${asked.id}$`));
    await expect(drawer(page)).toContainText('E2E: rotate the signing key before it lapses?');
    await expect.poll(shown).toEqual([]);
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
