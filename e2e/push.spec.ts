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
import { buildNotice } from '../server/notify/message.ts';
import { pushPayload } from '../server/notify/web-push.ts';
import { drawer, expect, row, test } from './fixtures';
import { openPushProfile } from './push-worker';

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
  await mock.reset('empty');
  const asked = await mock.ask({
    question: 'E2E: rotate the signing key before it lapses?',
    expires_in_seconds: 600,
  });
  const push = await openPushProfile(baseURL, { tenant: mock.tenant });
  try {
    const { page } = push;
    await expect(row(page, asked.id)).toBeVisible();
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
    await push.deliver(pushPayload(notice));
    // No quick answers: Open only.
    await expect.poll(push.shown).toEqual([
      {
        title: 'New question from billing-agent (Reflexio)',
        body: `billing-agent on Reflexio · 10 min left: ${asked.question_text}`,
        actions: ['Open'],
      },
    ]);

    // Clicked: the open inbox tab goes to the question, its list and state kept.
    await push.click();
    await expect(page).toHaveURL(new RegExp(`/questions/${asked.id}$`));
    await expect(drawer(page)).toContainText('E2E: rotate the signing key before it lapses?');
    await expect.poll(push.shown).toEqual([]);
  } finally {
    await push.close();
  }
});
