import { drawer, expect, row, test } from './fixtures';

// An unbroken ~1,500-character signature under a short question, as a mail client might append.
const SIGNATURE = `sig:${'A1b2C3d4E5f6'.repeat(125)}`;
const QUESTION = `May we renew the vendor contract for another year?\n\n--\n${SIGNATURE}`;

for (const [width, height] of [
  [1280, 800],
  [1024, 768],
  [375, 740],
] as const) {
  test(`at ${width} px a long unbroken text is clipped and the answer box is in view on opening`, async ({
    page,
    mock,
  }) => {
    await page.setViewportSize({ width, height });
    await mock.reset('empty');
    const { id } = await mock.ask({ question: QUESTION, expires_in_seconds: 3600 });
    await page.goto('questions');
    await row(page, id).getByRole('link').click();
    const question = drawer(page);
    const text = question.getByTestId('question-text');
    await expect(text).toContainText('May we renew the vendor contract');
    await expect(question.getByRole('textbox', { name: 'Answer' })).toBeInViewport({ ratio: 1 });
    const more = question.getByRole('button', { name: 'Show the whole text' });
    await expect(more).toBeVisible();
    await more.click();
    await expect(text).not.toHaveAttribute('data-clipped');
    await expect
      .poll(() => text.evaluate((node) => node.scrollHeight <= node.clientHeight + 1))
      .toBe(true);
    await question.getByRole('button', { name: 'Show less' }).click();
    await expect(question.getByRole('button', { name: 'Show the whole text' })).toBeVisible();
  });
}
