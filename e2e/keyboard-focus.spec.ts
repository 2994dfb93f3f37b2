import type { Page } from '@playwright/test';
import { drawer, expect, type MockControl, row, test } from './fixtures';

/** Two questions with quick answers (yes/no), the first expiring soonest (the Pending list's order). */
async function askTwo(mock: MockControl) {
  await mock.reset('empty');
  const ids: string[] = [];
  for (let i = 1; i <= 2; i++) {
    const { id } = await mock.ask({
      question: `Focus question ${i}: may the job run?`,
      answer_format: 'yes/no',
      expires_in_seconds: 3600 + i * 60,
    });
    ids.push(id);
  }
  return ids as [string, string];
}

/** Every draft the portal keeps in this browser. */
async function draftTexts(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Object.keys(localStorage)
      .filter((key) => key.includes(':draft:'))
      .map(
        (key) => (JSON.parse(localStorage.getItem(key) ?? '{}') as { text?: string }).text ?? '',
      ),
  );
}

const answerBox = (page: Page) => drawer(page).getByRole('textbox', { name: 'Answer' });

for (const width of [1024, 375]) {
  test.describe(`at ${width} px (the drawer over the list)`, () => {
    test.use({ viewport: { width, height: 800 } });

    test('j then Enter opens a question; the next Enter goes to its answer box, never closes it', async ({
      page,
      mock,
    }) => {
      const [first] = await askTwo(mock);
      await page.goto('questions');
      await expect(row(page, first)).toBeVisible();
      await page.keyboard.press('j');
      await expect(row(page, first).getByRole('link')).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(drawer(page).getByTestId('question-text')).toHaveText(
        'Focus question 1: may the job run?',
      );
      // The focus trap runs a moment after the drawer mounts: wait until it has settled.
      await expect(drawer(page).locator('[data-drawer-home]')).toBeFocused();
      await expect(page.getByRole('button', { name: 'Close question' })).not.toBeFocused();
      await page.keyboard.press('Enter');
      await expect(answerBox(page)).toBeFocused();
      await expect(drawer(page)).toBeVisible();
    });

    test('a click opens a question; Enter then goes to its answer box', async ({ page, mock }) => {
      const [first] = await askTwo(mock);
      await page.goto('questions');
      await row(page, first).getByRole('link').click();
      await expect(drawer(page).getByTestId('question-text')).toBeVisible();
      await expect(drawer(page).locator('[data-drawer-home]')).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(answerBox(page)).toBeFocused();
      await expect(drawer(page)).toBeVisible();
    });
  });
}

test.describe('in split view at 1440 px', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('two Enters reach the answer box; digits typed on the list write into no question', async ({
    page,
    mock,
  }) => {
    const [first, second] = await askTwo(mock);
    await page.goto('questions');
    await expect(row(page, second)).toBeVisible();
    await page.keyboard.press('j');
    await expect(row(page, first).getByRole('link')).toBeFocused();
    // Enter opens, with the cursor in the question…
    await page.keyboard.press('Enter');
    await expect(drawer(page).getByTestId('question-text')).toHaveText(
      'Focus question 1: may the job run?',
    );
    await expect(drawer(page).locator('[data-drawer-home]')).toBeFocused();
    // …and the next Enter goes into its box.
    await page.keyboard.press('Enter');
    await expect(answerBox(page)).toBeFocused();

    // Esc leaves the box; a click puts the cursor back on the list; digits there are no answer.
    await page.keyboard.press('Escape');
    await expect(answerBox(page)).not.toBeFocused();
    await row(page, second).getByRole('link').focus();
    await page.keyboard.type('42');
    await expect(answerBox(page)).toHaveValue('');
    expect(await draftTexts(page)).toEqual([]);
  });
});
