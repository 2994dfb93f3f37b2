import { expect, type Page } from '@playwright/test';
import { drawer, expectNoA11yViolations } from './fixtures';
import { ssoTest as test } from './sso-cookie';

/**
 * The team's snippets (issue 41): a saved answer one reviewer keeps is offered to the others in
 * the answer box of the same system's questions, its tag's first, on the portal's server; picking
 * one puts its text in at the cursor and sends nothing. Two reviewers in two browsers, each signed
 * in by the SSO's cookie (e2e/sso-cookie.ts).
 */

const REFUND = 'We refund within 30 days of delivery.';

/** The Reflexio question's state in the mock (what it was sent). */
async function mockCall(page: Page, id: string) {
  const response = await page.request.get('__mock/state');
  const state = (await response.json()) as {
    calls: { id: string; status: string; result?: unknown }[];
  };
  return state.calls.find((call) => call.id === id);
}

async function saveAsSnippet(page: Page, title: string, tag: string) {
  await drawer(page).getByRole('button', { name: 'Save as snippet' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save as snippet' });
  await expect(dialog.getByRole('textbox', { name: 'Text' })).toHaveValue(REFUND);
  await expect(dialog.getByRole('textbox', { name: 'Title' })).toHaveValue(REFUND);
  await dialog.getByRole('textbox', { name: 'Title' }).fill(title);
  await dialog.getByLabel('Offer it first on questions tagged').selectOption(tag);
  await dialog.getByRole('button', { name: 'Save snippet' }).click();
  await expect(dialog).toBeHidden();
  await expect(
    page.getByText(`“${title}” is offered to the team on Reflexio questions.`),
  ).toBeVisible();
}

test('a snippet Alice saves is offered to Bob, who puts it in at his cursor; nothing is sent until he sends', async ({
  scene,
}) => {
  test.slow();
  // Snippets are the deployment's, not a tenant's: a tag of this journey's own keeps another
  // journey's (or repeat's) out of its group.
  const billing = `billing-${scene.tag}`;
  const [first, second] = (await scene.ask([
    { question: 'Can we refund order 1182?', tags: [billing] },
    { question: 'Refund for order 2210, delivered last week?', tags: [billing] },
  ])) as [string, string];
  const alice = await (await scene.reviewer('alice')).newPage();
  await alice.goto(`questions/${first}`);
  const aliceBox = drawer(alice).getByRole('textbox', { name: 'Answer' });
  await aliceBox.fill(REFUND);
  // Esc closes the dialog, not the question under it.
  await drawer(alice).getByRole('button', { name: 'Save as snippet' }).click();
  await expect(alice.getByRole('dialog', { name: 'Save as snippet' })).toBeVisible();
  await alice.keyboard.press('Escape');
  await expect(alice.getByRole('dialog', { name: 'Save as snippet' })).toBeHidden();
  await expect(aliceBox).toBeVisible();
  await saveAsSnippet(alice, 'Refund policy', billing);
  // Saving kept her answer where it was, unsent.
  await expect(aliceBox).toHaveValue(REFUND);
  expect((await mockCall(alice, first))?.status).toBe('pending');

  const bob = await (await scene.reviewer('bob')).newPage();
  await bob.goto(`questions/${second}`);
  const bobBox = drawer(bob).getByRole('textbox', { name: 'Answer' });
  await bobBox.fill('Hello,');
  // By keyboard: the menu opens on its first item; a letter typed there finds an item (the menu's
  // type-ahead takes it: j is no shortcut to the next question here), Enter picks it.
  await drawer(bob).getByRole('button', { name: 'Team snippets' }).focus();
  await bob.keyboard.press('Enter');
  const menu = bob.getByRole('menu');
  await expect(menu.getByText(`Tagged ${billing}`)).toBeVisible();
  const offered = menu.getByRole('menuitem', { name: 'Refund policy' });
  await expect(offered).toHaveAccessibleDescription(REFUND);
  await expectNoA11yViolations(bob, '[role="menu"]');
  await expect(offered).toBeFocused();
  await bob.keyboard.press('j');
  await expect(bob).toHaveURL(new RegExp(`questions/${second}$`));
  await expect(offered).toBeFocused();
  await bob.keyboard.press('Enter');
  // In at the cursor, after what he typed; the cursor after it, in the box.
  await expect(bobBox).toHaveValue(`Hello, ${REFUND}`);
  await expect(bobBox).toBeFocused();
  await bob.keyboard.type(' Best, Bob');
  await expect(bobBox).toHaveValue(`Hello, ${REFUND} Best, Bob`);
  expect((await mockCall(bob, second))?.status).toBe('pending');

  await drawer(bob).getByRole('button', { name: 'Answer', exact: true }).click();
  await expect(bob.getByText('Answer sent')).toBeVisible();
  await expect
    .poll(async () => (await mockCall(bob, second))?.result)
    .toEqual({ answer: `Hello, ${REFUND} Best, Bob` });

  // Who saved it is in the trail, in plain words.
  await bob.goto('activity?action=snippet-create');
  const entries = bob.getByRole('table', { name: 'Activity, newest first' });
  await expect(entries.getByRole('row').nth(1)).toContainText(`alice-${scene.tag}@example.com`);
  await expect(entries.getByRole('row').nth(1)).toContainText('Snippet saved');
  await expect(entries.getByRole('row').nth(1)).toContainText('Team snippet “Refund policy”');
  await expect(entries.getByRole('row').nth(1)).toContainText(REFUND);

  // Gone again, for the journeys after this one on the same server.
  const { snippets } = (await (await bob.request.get('portal-api/snippets')).json()) as {
    snippets: { id: string; tag: string | null }[];
  };
  for (const snippet of snippets.filter((s) => s.tag === billing)) {
    expect((await bob.request.delete(`portal-api/snippets/${snippet.id}`)).status()).toBe(200);
  }
});

test('Manage snippets: Bob edits the team snippet Alice saved, then deletes it; Alice is told of his change', async ({
  scene,
}) => {
  test.slow();
  const billing = `billing-${scene.tag}`;
  const [id] = (await scene.ask([{ question: 'Refund order 77?', tags: [billing] }])) as [string];
  const alice = await (await scene.reviewer('alice')).newPage();
  await alice.goto(`questions/${id}`);
  await drawer(alice).getByRole('textbox', { name: 'Answer' }).fill(REFUND);
  await saveAsSnippet(alice, 'Refund policy', billing);
  // Alice opens the manager before Bob changes the snippet: her copy is at the first version.
  await drawer(alice).getByRole('button', { name: 'Team snippets' }).click();
  await alice.getByRole('menuitem', { name: 'Manage snippets' }).click();
  const aliceManager = alice.getByRole('dialog', { name: 'Manage snippets' });
  await aliceManager.getByRole('button', { name: 'Edit “Refund policy”' }).click();

  const bob = await (await scene.reviewer('bob')).newPage();
  await bob.goto(`questions/${id}`);
  await drawer(bob).getByRole('button', { name: 'Team snippets' }).click();
  await bob.getByRole('menuitem', { name: 'Manage snippets' }).click();
  const manager = bob.getByRole('dialog', { name: 'Manage snippets' });
  const entry = manager.getByRole('listitem', { name: 'Refund policy' });
  await expect(entry).toContainText(`Saved by alice-${scene.tag}@example.com`);
  await expectNoA11yViolations(bob, '[role="dialog"][aria-modal="true"]');
  await entry.getByRole('button', { name: 'Edit “Refund policy”' }).click();
  const form = manager.getByRole('region', { name: 'Edit “Refund policy”' });
  await form.getByRole('textbox', { name: 'Text' }).fill('We refund within 14 days of delivery.');
  await form.getByRole('button', { name: 'Save changes' }).click();
  const edited = manager.getByRole('listitem', { name: 'Refund policy' });
  await expect(edited).toContainText('We refund within 14 days of delivery.');
  await expect(edited).toContainText(`Changed by bob-${scene.tag}@example.com`);

  // Alice's edit started from the first version: refused with Bob's name, her words kept.
  const aliceForm = aliceManager.getByRole('region', { name: 'Edit “Refund policy”' });
  await aliceForm.getByRole('textbox', { name: 'Text' }).fill('We refund within 60 days.');
  await aliceForm.getByRole('button', { name: 'Save changes' }).click();
  await expect(aliceForm.getByRole('alert')).toContainText(
    `bob-${scene.tag}@example.com changed this snippet since you opened it`,
  );
  await expect(aliceForm.getByRole('textbox', { name: 'Text' })).toHaveValue(
    'We refund within 60 days.',
  );
  await expect(aliceForm).toContainText(
    `bob-${scene.tag}@example.com’s version: “Refund policy”, “We refund within 14 days of delivery.”`,
  );

  await edited.getByRole('button', { name: 'Delete “Refund policy”' }).click();
  const ask = manager.getByRole('alertdialog', { name: 'Delete “Refund policy”?' });
  await ask.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(manager.getByRole('listitem', { name: 'Refund policy' })).toHaveCount(0);

  await bob.goto('activity');
  const table = bob.getByRole('table', { name: 'Activity, newest first' });
  await expect(table.getByRole('row').nth(1)).toContainText('Snippet deleted');
  await expect(table.getByRole('row').nth(2)).toContainText('Snippet edited');
});
