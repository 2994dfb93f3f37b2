// Nothing that comes a moment after the first screen (with code of its own, held back here with
// page.route until what is below it is measured) moves what a reviewer is aiming at. Each of these
// once did: a click on a row or a button then met another or nothing.
import { demoIds } from '../mock/seed';
import { drawer, expect, holdBack, test } from './fixtures';

// What comes late in the browser's own render (the nginx-only deployment, the demo). With a first
// screen from the server, the parts on it are loaded before the app takes the page over
// (first-screen.spec.ts checks that nothing visible changes then); docs/server-rendering.md's
// "Known gaps" says what still moves there.
test.use({ firstScreen: false });

/** The team's part (presence, claims): its own chunk, asked for after the first screen. */
const TEAM_PART = /\/assets\/parts-[\w-]+\.js$/;

// Above the list, the clock notice pushed every row down as a reviewer clicked (a click on a row
// then opened nothing), and on a phone so did the Claimed filter's line.
for (const width of [1280, 375]) {
  test(`the clock notice and the Claimed filter come without moving the rows (${width} px)`, async ({
    page,
    mock,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await mock.call('POST', 'clock', { advanceMs: 20 * 60_000 });
    const release = await holdBack(page, /\/assets\/(clock-skew-notice|parts)-[\w-]+\.js$/);
    await page.goto('questions');
    const first = page.locator('[data-question-id]').first();
    await expect(first).toBeVisible();
    const top = () => first.evaluate((node) => node.getBoundingClientRect().top);
    const before = await top();
    await expect(page.getByTestId('claimed-filter')).toHaveCount(0);
    await release();
    await expect(page.getByRole('status').filter({ hasText: 'clock' })).toBeVisible();
    await expect(page.getByTestId('claimed-filter')).toBeVisible();
    expect(await top()).toBe(before);
  });
}

// A question opened by its link comes before the team's part; its Claim line went in above the
// answer form and moved the form and its buttons down 47 px.
for (const width of [1440, 375]) {
  test(`the drawer's Claim line comes without moving the answer form (${width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    const release = await holdBack(page, TEAM_PART);
    await page.goto(`questions/${demoIds.pendingYesNo}`);
    const answer = drawer(page).getByRole('textbox', { name: 'Answer' });
    await expect(answer).toBeVisible();
    const top = () => answer.evaluate((node) => node.getBoundingClientRect().top);
    const before = await top();
    await release();
    await expect(drawer(page).getByRole('button', { name: 'Claim', exact: true })).toBeVisible();
    expect(await top()).toBe(before);
  });
}

// The team's snippets come with a part of their own (and their list) after the answer box: they
// sit beside the box's Advanced link, and must not push the Answer button down when they come.
for (const width of [1440, 375]) {
  test(`Team snippets come without moving the Answer button (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    const release = await holdBack(page, /\/assets\/answer-snippets-[\w-]+\.js$/);
    await page.goto(`questions/${demoIds.pendingYesNo}`);
    const answer = drawer(page).getByRole('button', { name: 'Answer', exact: true });
    await expect(answer).toBeVisible();
    const top = () => answer.evaluate((node) => node.getBoundingClientRect().top);
    const before = await top();
    await release();
    await expect(drawer(page).getByRole('button', { name: 'Team snippets' })).toBeVisible();
    expect(await top()).toBe(before);
  });
}
