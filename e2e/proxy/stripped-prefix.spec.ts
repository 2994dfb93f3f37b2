// Behind a gateway that strips the public prefix (deploy/nginx/questions-inbox-inner.conf, with
// the harness's stand-in gateway in front): the inner server writes the public prefix from
// X-Forwarded-Prefix into <base href>, so deep links, reloads and the API all work.
import { expect, questionList, STRIPPED_PREFIX, test } from './fixtures';

test('a deep link through a prefix-stripping gateway loads, and survives a reload', async ({
  page,
  harness,
  mock,
}) => {
  const question = await mock.ask({
    id: 'ptc_proxy_stripped',
    question: 'Does the stripped gateway keep the staging questions apart?',
  });
  const address = `${harness.strippedOrigin}${STRIPPED_PREFIX}questions/${question.id}`;

  await page.goto(address);
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByText(question.question_text, { exact: true })).toBeVisible();
  await expect(
    questionList(page).getByRole('link', { name: question.question_text }),
  ).toBeVisible();

  await page.reload();
  await expect(page).toHaveURL(address);
  await expect(
    page.getByRole('dialog').getByText(question.question_text, { exact: true }),
  ).toBeVisible();

  // Closing the drawer goes to the list under the public prefix, not the inner server's root.
  await page.getByRole('button', { name: 'Close question' }).click();
  await expect(page).toHaveURL(`${harness.strippedOrigin}${STRIPPED_PREFIX}questions`);
});
