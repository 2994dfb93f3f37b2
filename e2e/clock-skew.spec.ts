import type { Page } from '@playwright/test';
import { drawer, expect, type MockControl, row, test } from './fixtures';

const answerButton = { name: 'Answer', exact: true } as const;
const MINUTE = 60_000;

// Real expiries on a shared, busy machine: room for a slow page, never a sleep.
test.describe.configure({ timeout: 90_000 });

/**
 * The computer's clock runs `shiftMs` off the real (and the mock server's) time: `Date` is shifted,
 * timers and `performance.now()` run as they do on such a machine.
 */
async function shiftBrowserClock(page: Page, shiftMs: number) {
  await page.addInitScript((shift: number) => {
    const RealDate = Date;
    class ShiftedDate extends RealDate {
      constructor(...args: unknown[]) {
        if (args.length === 0) super(RealDate.now() + shift);
        else super(...(args as [string]));
      }
      static override now() {
        return RealDate.now() + shift;
      }
    }
    globalThis.Date = ShiftedDate as DateConstructor;
    // The test's own view of the real time, for when things happened on the page.
    (window as unknown as { realNow: () => number }).realNow = () => RealDate.now();
  }, shiftMs);
}

/** Notes the real time at which the open question first says it has expired. */
function recordExpiredFlip(page: Page) {
  return page.evaluate(() => {
    const realNow = (window as unknown as { realNow: () => number }).realNow;
    const flipped = () =>
      document.querySelector('[role="dialog"]')?.textContent?.includes('This question has expired');
    const w = window as unknown as { flippedAt?: number };
    const observer = new MutationObserver(() => {
      if (w.flippedAt === undefined && flipped()) {
        w.flippedAt = realNow();
        observer.disconnect();
      }
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

for (const [label, shift, word] of [
  ['fast', 15 * MINUTE, 'ahead of'],
  ['slow', -15 * MINUTE, 'behind'],
] as const) {
  test(`a computer clock 15 minutes ${label}: countdowns follow the server and an answer goes through`, async ({
    page,
    mock,
  }) => {
    const asked = await mock.ask({
      question: `E2E: the browser clock is ${label}; may the deploy go ahead?`,
      answer_format: 'yes/no',
      expires_in_seconds: 10 * 60,
    });
    await shiftBrowserClock(page, shift);
    await page.goto('questions');
    const listed = row(page, asked.id);
    // 10 minutes by the server's clock; the browser's own would say expired (fast) or 25 min (slow).
    await expect(listed.getByText(/expires in (9m|10m)/)).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: "This computer's clock" })).toHaveText(
      `This computer's clock is 15 minutes ${word} the server's; times here follow the server.`,
    );
    await listed.getByRole('link').click();
    const question = drawer(page);
    await expect(question.getByText(/expires in (9m|10m)/)).toBeVisible();
    // Stay on it after the answer (answer and next would move on to the next question).
    await question
      .getByRole('switch', { name: 'Go to the next question after each answer' })
      .uncheck();
    await question.getByRole('button', { name: 'Yes' }).click();
    await question.getByRole('button', answerButton).click();
    await expect(question.getByTestId('current-answer')).toHaveText('Yes', { timeout: 15_000 });
    const call = await mock.find(asked.id);
    expect(call?.status).toBe('resolved');
    expect(call?.result).toEqual({ answer: 'Yes' });
  });
}

/**
 * A question with half a minute left, opened on a computer whose clock is `shift` off: it must turn
 * expired when the server's time runs out.
 */
async function expiresOnServerTime(page: Page, mock: MockControl, label: string, shift: number) {
  const asked = await mock.ask({
    question: `E2E: the browser clock is ${label}; restart the worker?`,
    answer_format: 'yes/no',
    expires_in_seconds: 30,
  });
  const call = await mock.find(asked.id);
  const expiresAt = Date.parse(String(call?.expires_at));
  await shiftBrowserClock(page, shift);
  await page.goto(`questions/${asked.id}`);
  const question = drawer(page);
  // Seconds by the server's clock (the browser's own would say expired, or 15 minutes).
  await expect(question.getByText(/expires in \d+s/)).toBeVisible({ timeout: 15_000 });
  await expect(question.getByRole('button', answerButton)).toBeEnabled();
  await recordExpiredFlip(page);
  await expect(question.getByText(/This question has expired/)).toBeVisible({ timeout: 45_000 });
  // Flipped when the server's time ran out. Following the computer's clock instead, a fast one
  // flips 15 minutes early (caught here) and a slow one 15 minutes late (past the wait above).
  // The estimate is as good as the Date header's 1-second resolution, hence the tolerance; no
  // upper bound in wall time: a loaded machine paints late (1,975 ms once), which says nothing
  // about which clock the page follows.
  const flippedAt = await page.evaluate(
    () => (window as unknown as { flippedAt?: number }).flippedAt,
  );
  expect(flippedAt).toBeDefined();
  expect(flippedAt as number).toBeGreaterThanOrEqual(expiresAt - 1_000);
  await expect(question.getByRole('button', answerButton)).toHaveCount(0);
}

// Both clocks side by side in one test: the wait is the question's real half minute, once.
test("a computer clock 15 minutes fast, and one 15 minutes slow: a question turns expired when the server's time runs out", async ({
  page,
  context,
  browser,
  mock,
  baseURL,
}) => {
  const slow = await browser.newContext({ baseURL });
  try {
    await slow.addCookies(await context.cookies());
    await Promise.all([
      expiresOnServerTime(page, mock, 'fast', 15 * MINUTE),
      expiresOnServerTime(await slow.newPage(), mock, 'slow', -15 * MINUTE),
    ]);
  } finally {
    await slow.close();
  }
});

test('a clock within a minute of the server says nothing about it', async ({ page, mock }) => {
  await mock.ask({ question: 'E2E: on time?', expires_in_seconds: 600 });
  await page.goto('questions');
  await expect(page.getByRole('list', { name: 'Questions' })).toBeVisible();
  await expect(page.getByText("Your computer's clock")).toHaveCount(0);
});
