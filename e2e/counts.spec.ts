import type { Page } from '@playwright/test';
import { demoIds } from '../mock/seed';
import { expect, expectListComplete, row, test } from './fixtures';

const statusFilter = (page: Page) => page.getByRole('radiogroup', { name: 'Status' });
const rowIds = (page: Page) =>
  page
    .locator('[data-question-id]')
    .evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.questionId));

test('counts say "2 of 20" under a filter; Resolved is sorted by when each was resolved; only the last minutes are coloured', async ({
  page,
  mock,
}) => {
  await page.goto('questions');
  await expect(statusFilter(page).getByRole('radio', { name: /^All 45$/ })).toBeVisible();
  await expect(statusFilter(page).getByRole('radio', { name: 'Pending 21' })).toBeChecked();

  // A tag filter: the counts say how many of each status it shows.
  await page.getByRole('combobox', { name: 'Tag' }).selectOption('billing');
  const pending = statusFilter(page).getByRole('radio', { name: /^Pending \d+ of 21$/ });
  await expect(pending).toBeChecked();
  const shown = Number(
    (await pending.evaluate((input) => input.parentElement?.textContent))?.match(/(\d+) of/)?.[1],
  );
  expect(shown).toBeGreaterThan(0);
  expect(shown).toBeLessThan(21);
  await expect(page.locator('[data-question-id]')).toHaveCount(shown);
  await expect(statusFilter(page).getByRole('radio', { name: /^All \d+ of 45$/ })).toBeVisible();
  // Search too, as it is typed.
  await page.getByRole('searchbox', { name: 'Search' }).fill(demoIds.pendingYesNo);
  await expect(statusFilter(page).getByRole('radio', { name: 'Pending 1 of 21' })).toBeChecked();
  await expect(statusFilter(page).getByRole('radio', { name: 'Resolved 0 of 14' })).toBeVisible();
  await page.getByRole('button', { name: 'Clear search' }).click();
  await page.getByRole('combobox', { name: 'Tag' }).selectOption('');
  await expect(statusFilter(page).getByRole('radio', { name: 'Pending 21' })).toBeChecked();

  // Resolved: the latest resolved first. Another reviewer answers a question asked 4 hours ago:
  // it is resolved last, so it comes first, before questions asked after it.
  await mock.asOtherReviewer(demoIds.pendingYesNo, 'resolve', { answer: 'Yes' });
  await page.getByRole('button', { name: 'Refresh now' }).click();
  await expect(statusFilter(page).getByRole('radio', { name: 'Resolved 15' })).toBeVisible();
  await statusFilter(page)
    .getByText(/^Resolved/)
    .click();
  await expect(page.getByRole('combobox', { name: 'Sort' })).toHaveValue('resolved');
  await expect(row(page, demoIds.resolved)).toBeVisible();
  const resolvedAt = new Map(
    (await mock.calls())
      .filter((call) => call.status === 'resolved')
      .map((call) => [call.id, Date.parse(String(call.resolved_at))]),
  );
  await expect.poll(async () => (await rowIds(page)).length).toBe(15);
  const shownOrder = await rowIds(page);
  const byResolution = [...shownOrder].sort(
    (a, b) => (resolvedAt.get(b as string) ?? 0) - (resolvedAt.get(a as string) ?? 0),
  );
  expect(shownOrder).toEqual(byResolution);
  expect(shownOrder[0]).toBe(demoIds.pendingYesNo);
  // Urgency colours: the last 10 minutes (or 10 % of a question's life), not the whole hour.
  await statusFilter(page)
    .getByText(/^Pending/)
    .click();
  await expect(row(page, demoIds.pendingSoonest).locator('[data-urgency]')).toHaveAttribute(
    'data-urgency',
    'danger',
  );
  await expectListComplete(page);
  const levels = await page
    .locator('[data-question-id] [data-urgency]')
    .evaluateAll((spans) =>
      spans.map((span) => [span.textContent ?? '', (span as HTMLElement).dataset.urgency ?? '']),
    );
  // Due within the hour but not in its last 10 minutes nor its last tenth (the demo's question
  // asked 10 minutes ago that expires in 50): no colour.
  const withinTheHour = levels.filter(([text]) => /^expires in \d+m \d+s$/.test(text ?? ''));
  const notUrgent = withinTheHour.filter(
    ([text]) => Number(/in (\d+)m/.exec(text ?? '')?.[1]) >= 10,
  );
  expect(notUrgent.length).toBeGreaterThan(0);
  for (const [text, level] of notUrgent) expect([text, level]).toEqual([text, 'calm']);
});
