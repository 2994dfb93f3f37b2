import type { Page } from '@playwright/test';
import { drawer, expect, row, snapshot, test } from './fixtures';

// Each journey serves the page a config.json of its own (a hidden tab's polling in seconds), which
// the server's first screen was not rendered with: the browser would render the page anew over
// it. These look at the browser's own render, as the page is when its config differs.
test.use({ firstScreen: false });

// A hidden tab polls every 15 s here (the lowest notifyPollIntervalMs allows): room for two polls.
test.describe.configure({ timeout: 90_000 });

const isListRequest = (url: string) => /\/api\/pending_tool_calls(\?|$)/.test(url);

/**
 * Counts the desktop notifications the page creates and the permission requests it makes (wrapping
 * the browser's own Notification), and lets the test put the page in the background: hidden (as
 * behind another tab) or visible without the focus (another app in front).
 */
async function instrument(page: Page, options: { blocked?: boolean } = {}) {
  await page.addInitScript(
    ({ blocked }) => {
      const w = window as unknown as Record<string, unknown>;
      const Real = window.Notification;
      const shown: Array<{ title: string; body: string; notification: Notification }> = [];
      w.__shown = shown;
      w.__permissionAsks = 0;
      class Counted extends Real {
        constructor(title: string, init?: NotificationOptions) {
          super(title, init);
          shown.push({ title, body: init?.body ?? '', notification: this });
        }
        static override get permission(): NotificationPermission {
          return blocked ? 'denied' : Real.permission;
        }
        static override requestPermission(
          ...args: Parameters<typeof Notification.requestPermission>
        ) {
          w.__permissionAsks = (w.__permissionAsks as number) + 1;
          return Real.requestPermission(...args);
        }
      }
      window.Notification = Counted as typeof Notification;

      let hidden = false;
      let unfocused = false;
      Object.defineProperty(Document.prototype, 'visibilityState', {
        configurable: true,
        get: () => (hidden ? 'hidden' : 'visible'),
      });
      Object.defineProperty(Document.prototype, 'hidden', {
        configurable: true,
        get: () => hidden,
      });
      const hasFocus = Document.prototype.hasFocus;
      Document.prototype.hasFocus = function (this: Document) {
        return !hidden && !unfocused && hasFocus.call(this);
      };
      w.__background = (how: 'hidden' | 'unfocused') => {
        if (how === 'hidden') hidden = true;
        else unfocused = true;
        document.dispatchEvent(new Event('visibilitychange'));
        window.dispatchEvent(new Event('blur'));
      };
    },
    { blocked: options.blocked ?? false },
  );
  // The lowest hidden-tab interval the config allows, so that the journey takes seconds, not minutes.
  await page.route('**/config.json', (route) =>
    route.fulfill({
      json: {
        apiBaseUrl: 'api',
        pollIntervalMs: 10_000,
        notifyPollIntervalMs: 15_000,
        auth: { mode: 'proxy' },
      },
    }),
  );
}

const shown = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { __shown: Array<{ title: string; body: string }> }).__shown.map(
      ({ title, body }) => ({ title, body }),
    ),
  );
const permissionAsks = (page: Page) =>
  page.evaluate(() => (window as unknown as { __permissionAsks: number }).__permissionAsks);
const background = (page: Page, how: 'hidden' | 'unfocused') =>
  page.evaluate(
    (h) => (window as unknown as { __background: (h: string) => void }).__background(h),
    how,
  );
const toggle = (page: Page) => page.getByRole('switch', { name: /notifications/i });

test('notifications on: a hidden tab keeps polling slowly, tells of new questions once, and a click opens the soonest', async ({
  page,
  context,
  mock,
}) => {
  await context.grantPermissions(['notifications']);
  await mock.reset('empty');
  const old = await mock.ask({ question: 'E2E: already here', expires_in_seconds: 3600 });
  await instrument(page);
  await page.goto('questions');
  await expect(row(page, old.id)).toBeVisible();

  await expect(toggle(page)).toHaveAttribute('aria-checked', 'false');
  await toggle(page).click();
  await expect(toggle(page)).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByText('Desktop notifications on')).toBeVisible();
  await snapshot(page, 'notifications-on');
  // Remembered: still on after a reload.
  await page.reload();
  await expect(row(page, old.id)).toBeVisible();
  await expect(toggle(page)).toHaveAttribute('aria-checked', 'true');

  // Behind another tab: only the slow poll can bring the next questions.
  // Its answer, not its request: questions asked while a poll is on its way may be in it or not.
  const hiddenPoll = page.waitForResponse((response) => isListRequest(response.url()), {
    timeout: 30_000,
  });
  await background(page, 'hidden');
  await hiddenPoll;
  const [soon] = await Promise.all([
    mock.ask({
      question: 'E2E: rotate the signing key before it lapses?',
      expires_in_seconds: 240,
    }),
    mock.ask({ question: 'E2E: second new one', expires_in_seconds: 1200 }),
    mock.ask({ question: 'E2E: third new one', expires_in_seconds: 1800 }),
  ]);
  await expect.poll(() => shown(page), { timeout: 40_000 }).toHaveLength(1);
  expect(await shown(page)).toEqual([
    {
      title: '3 new questions; the soonest expires in 4 minutes',
      body: 'E2E: rotate the signing key before it lapses?',
    },
  ]);
  // The tab's title and icon count them, urgent: one expires within 5 minutes.
  await expect(page).toHaveTitle('(4) Expiring soon · Questions');
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute('data-badge', '4 urgent');
  expect(await permissionAsks(page)).toBe(0);

  // Clicking the notification opens the question it is about.
  await page.evaluate(() =>
    (
      window as unknown as { __shown: Array<{ notification: Notification }> }
    ).__shown[0]?.notification.dispatchEvent(new Event('click')),
  );
  await expect(page).toHaveURL(new RegExp(`/questions/${soon?.id}$`));
  await expect(drawer(page)).toContainText('E2E: rotate the signing key before it lapses?');
});

test('notifications off: none are shown and the browser is not asked, though new questions arrive', async ({
  page,
  context,
  mock,
}) => {
  await context.grantPermissions(['notifications']);
  await mock.reset('empty');
  await instrument(page);
  await page.goto('questions');
  await expect(toggle(page)).toHaveAttribute('aria-checked', 'false');
  // Another app in front: the tab stays visible and keeps polling as usual.
  await background(page, 'unfocused');
  const asked = await mock.ask({
    question: 'E2E: nobody is told of this',
    expires_in_seconds: 200,
  });
  await expect(row(page, asked.id)).toBeVisible({ timeout: 25_000 });
  await expect(page).toHaveTitle('(1) Expiring soon · Questions');
  expect(await shown(page)).toEqual([]);
  expect(await permissionAsks(page)).toBe(0);
});

test('notifications blocked by the browser: the switch says so and how to allow them', async ({
  page,
}) => {
  await instrument(page, { blocked: true });
  await page.goto('questions');
  const blocked = page.getByRole('switch', {
    name: 'Desktop notifications: blocked by the browser',
  });
  await expect(blocked).toHaveAttribute('aria-checked', 'false');
  await expect(blocked).toContainText('Blocked');
  await blocked.click();
  await expect(page.getByText(/Allow them in the site settings/)).toBeVisible();
  await snapshot(page, 'notifications-blocked');
  expect(await permissionAsks(page)).toBe(0);
});
