import type { Page } from '@playwright/test';
import { drawer, expect, holdBack, type MockControl, row, test } from './fixtures';

// With the server's first screen (the fixtures' default): a deep link into a list of 100 or more
// holds only the first screenful of rows in its HTML, and the first step (j), pressed as soon as
// the question shows, brings the virtualized list to the next row once the app has taken over.

/** The row is wholly in the window, below the header and beside the pane. */
async function expectRowInView(page: Page, id: string) {
  await expect
    .poll(async () => {
      const box = await row(page, id).boundingBox();
      const pane = await drawer(page).boundingBox();
      if (!box || !pane) return 'not on screen';
      const height = await page.evaluate(() => window.innerHeight);
      if (box.y < 56 || box.y + box.height > height) return 'scrolled out of view';
      return box.x + box.width <= pane.x ? 'in view' : 'under the pane';
    })
    .toBe('in view');
}

/** `count` pending free-text questions, in the Pending list's order (soonest expiry first). */
async function askMany(mock: MockControl, count: number) {
  await mock.reset('empty');
  return mock.askAll(
    Array.from({ length: count }, (_, k) => ({
      question: `Follow question ${k + 1}: which region should the job use?`,
      expires_in_seconds: 3600 + (k + 1) * 60,
    })),
  );
}

for (const [width, height] of [
  [1440, 900],
  [1280, 800],
] as const) {
  test.describe(`split view at ${width} px`, () => {
    test.use({ viewport: { width, height } });

    for (const [count, at] of [
      [40, 33],
      [130, 110],
    ] as const)
      test(`a deep link opens at the page's top; the next step brings the list to the open row (${count} questions)`, async ({
        page,
        mock,
      }) => {
        const ids = await askMany(mock, count);
        const target = ids[at] as string;
        await page.goto(`questions/${target}`);
        await expect(drawer(page).getByTestId('question-text')).toHaveText(
          `Follow question ${at + 1}: which region should the job use?`,
        );
        // The status tabs stay in view (issue 41: a link scrolled them, and the demo's banner, away).
        await expect(page.getByRole('radiogroup', { name: 'Status' })).toBeInViewport();
        if (count < 100)
          await expect(row(page, target).getByRole('link')).toHaveAttribute('aria-current', 'true');
        expect(await page.evaluate(() => window.scrollY)).toBe(0);
        await page.keyboard.press('j');
        const next = ids[at + 1] as string;
        await expect(page).toHaveURL(new RegExp(`/questions/${next}$`));
        await expect(row(page, next).getByRole('link')).toHaveAttribute('aria-current', 'true');
        await expectRowInView(page, next);
      });

    test('a step taken before the long list’s code is here brings the list to the row once it is', async ({
      page,
      mock,
    }) => {
      const ids = await askMany(mock, 130);
      const release = await holdBack(page, /\/assets\/virtual-list-[^/]*\.js$/);
      await page.goto(`questions/${ids[110]}`);
      await expect(drawer(page).getByTestId('question-text')).toHaveText(
        'Follow question 111: which region should the job use?',
      );
      await expect(page.locator('html[data-hydrated]')).toBeAttached();
      await page.keyboard.press('j');
      const next = ids[111] as string;
      await expect(page).toHaveURL(new RegExp(`/questions/${next}$`));
      // Only the first rows are in the page until the virtualized list comes.
      await expect(row(page, next)).toHaveCount(0);
      await release();
      await expect(row(page, next).getByRole('link')).toHaveAttribute('aria-current', 'true');
      await expectRowInView(page, next);
    });

    for (const count of [40, 130])
      test(`answer and next keeps the open row in view (${count} questions)`, async ({
        page,
        mock,
      }) => {
        const ids = await askMany(mock, count);
        await page.goto('questions');
        await expect(row(page, ids[0] as string)).toBeVisible();
        // The last row on screen: the next one is below the fold.
        const lastInView = await page.evaluate(() => {
          const rows = [...document.querySelectorAll<HTMLElement>('[data-question-id]')];
          const seen = rows.filter((r) => r.getBoundingClientRect().bottom <= window.innerHeight);
          return seen.at(-1)?.dataset.questionId as string;
        });
        const index = ids.indexOf(lastInView);
        await row(page, lastInView).getByRole('link').click();
        const box = drawer(page).getByRole('textbox', { name: 'Answer' });
        await box.fill('eu-west');
        await page.keyboard.press('Control+Enter');
        const next = ids[index + 1] as string;
        await expect(page).toHaveURL(new RegExp(`/questions/${next}$`));
        await expect(row(page, next).getByRole('link')).toHaveAttribute('aria-current', 'true');
        await expectRowInView(page, next);
        // And once more, from there.
        await expect(box).toBeFocused();
        await box.fill('eu-west');
        await page.keyboard.press('Control+Enter');
        const after = ids[index + 2] as string;
        await expect(page).toHaveURL(new RegExp(`/questions/${after}$`));
        await expectRowInView(page, after);
      });
  });
}
