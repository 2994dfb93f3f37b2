import { demoIds } from '../mock/seed';
import { drawer, expect, row, test } from './fixtures';

for (const [width, height] of [
  [1280, 800],
  [375, 740],
] as const) {
  test(`at ${width} px a JSON result starts empty, the arguments on request, and the confirmation shows what is sent`, async ({
    page,
    mock,
  }) => {
    await page.setViewportSize({ width, height });
    await page.goto(`questions?status=all`);
    await row(page, demoIds.nonAskHumanPending).getByRole('link').click();
    const question = drawer(page);
    const box = question.getByRole('textbox', { name: 'Result (JSON)' });
    await expect(box).toHaveValue('');
    const args = question.getByLabel("The call's arguments");
    await expect(args).toContainText('"service": "billing-api"');

    // Clicking through sends nothing: an empty box is no result.
    await question.getByRole('button', { name: 'Resolve' }).click();
    await expect(question.getByText(/^Write the result as a JSON object/)).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Send this result?' })).toHaveCount(0);

    await question.getByRole('button', { name: 'Start from the arguments' }).click();
    await expect(box).toBeFocused();
    await expect(box).toHaveValue(/"service": "billing-api"/);
    await box.fill('{"approved": true, "note": "ship it"}');
    await question.getByRole('button', { name: 'Resolve' }).click();
    const confirm = page.getByRole('dialog', { name: 'Send this result?' });
    await expect(confirm.getByLabel('The result to send')).toContainText('"approved": true');
    await expect(confirm.getByLabel('The result to send')).toContainText('"note": "ship it"');
    await confirm.getByRole('button', { name: 'Send result' }).click();
    await expect(page.getByText('Result sent')).toBeVisible();
    expect((await mock.find(demoIds.nonAskHumanPending))?.result).toStrictEqual({
      approved: true,
      note: 'ship it',
    });
  });
}
