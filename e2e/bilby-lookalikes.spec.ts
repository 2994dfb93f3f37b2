// Look-alikes across Bilby conversations: the same question with the same options, asked in
// several conversations, is answered once; each conversation still gets its own request.
import type { APIRequestContext } from '@playwright/test';
import { drawer, expect, test } from './fixtures';

async function bilby(request: APIRequestContext, tenant: string, path: string, data?: unknown) {
  const response = await request.fetch(`bilby/__mock/${path}`, {
    method: data === undefined ? 'GET' : 'POST',
    headers: { 'x-mock-tenant': tenant, connection: 'close' },
    data,
  });
  if (!response.ok()) throw new Error(`bilby mock ${path}: ${response.status()}`);
  return response.json();
}

const offsite = {
  question: 'Which city should host the spring team offsite?',
  header: 'City',
  options: [
    { label: 'Lisbon', description: 'Flights for everyone' },
    { label: 'In town', description: 'No travel' },
  ],
  multiSelect: false,
};

test('the same Bilby question from three conversations is one group, answered once', async ({
  page,
  request,
  mock,
}) => {
  await bilby(request, mock.tenant, 'reset', { seed: 'demo' });
  const conversations: string[] = [];
  for (const team of ['Design', 'Platform', 'Sales']) {
    const created = (await bilby(request, mock.tenant, 'conversations', {
      title: `Team offsite (${team})`,
      pending: [{ questions: [offsite] }],
    })) as { conversation: { id: string } };
    conversations.push(created.conversation.id);
  }
  // The same words with other options are another question.
  await bilby(request, mock.tenant, 'conversations', {
    title: 'Team offsite (Finance)',
    pending: [
      {
        questions: [
          {
            ...offsite,
            options: [
              { label: 'Porto', description: 'By train' },
              { label: 'In town', description: 'No travel' },
            ],
          },
        ],
      },
    ],
  });

  await page.goto('questions?q=spring+team+offsite');
  const group = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('button', { name: 'Show 3 asks' }) });
  await expect(group.getByTestId('asks')).toHaveText('3 asks from 3 conversations');
  // The Finance ask (other options) stands alone.
  await expect(page.locator('[data-question-id]')).toHaveCount(2);

  await group.getByRole('link', { name: offsite.question }).click();
  const panel = drawer(page);
  await expect(panel.getByText('asked 3 times from 3 conversations')).toBeVisible();
  // Stay on the group after the answer, to read what came of it.
  await panel.getByRole('switch', { name: 'Go to the next question after each answer' }).uncheck();
  await panel.getByRole('radio', { name: 'Lisbon' }).check();
  await panel.getByRole('button', { name: 'Answer', exact: true }).click();
  await expect(panel.getByRole('status').filter({ hasText: 'Answered 3 of 3.' })).toBeVisible();
  const state = (await bilby(request, mock.tenant, 'state')) as {
    conversations: { id: string; answered: { output: { summary: string } }[] }[];
  };
  for (const id of conversations) {
    const answered = state.conversations.find((c) => c.id === id)?.answered ?? [];
    expect(answered).toHaveLength(1);
    expect(answered[0]?.output.summary).toBe('City: Lisbon');
  }
});
