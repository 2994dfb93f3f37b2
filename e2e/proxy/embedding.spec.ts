// The portal inside another page's iframe: allowed for the origins in frame-ancestors ('self'
// here), refused for any other; `?embed=1` drops the app header.
import { expect, PREFIX, questionList, test } from './fixtures';

test('embedded by a page of the same origin with ?embed=1, the portal works without its header', async ({
  page,
  mock,
  signIn,
  reviewer,
}) => {
  const question = await mock.ask({
    id: 'ptc_proxy_embedded',
    question: 'Should the embedded inbox show archived teams?',
  });
  await signIn(reviewer);
  await page.goto('embed-host.html');
  await expect(page.getByRole('heading', { name: 'Team portal' })).toBeVisible();

  const frame = page.frameLocator('iframe[title="Questions Inbox"]');
  await expect(questionList(frame)).toBeVisible();
  await expect(frame.getByRole('link', { name: question.question_text })).toBeVisible();
  // Compact view: no banner with the app's name and tools (the page keeps a visually hidden
  // heading for screen readers).
  await expect(frame.getByRole('banner')).toHaveCount(0);
  await expect(frame.getByRole('button', { name: /Switch to (dark|light) theme/ })).toHaveCount(0);

  // It still works in there: open the question.
  await frame.getByRole('link', { name: question.question_text }).click();
  await expect(frame.getByRole('textbox', { name: 'Answer' })).toBeVisible();
});

test('a page of another origin cannot frame the portal (frame-ancestors)', async ({
  page,
  harness,
  guard,
  signIn,
  reviewer,
}) => {
  await signIn(reviewer);
  guard.allowedOrigins.add(harness.sso.origin);
  const portal = `${harness.origin}${PREFIX}questions?embed=1`;
  const refused = page.waitForEvent('console', {
    timeout: 5_000,
    predicate: (message) => /frame-ancestors/.test(message.text()),
  });
  await page.goto(`${harness.sso.origin}/__sso/frame?src=${encodeURIComponent(portal)}`);
  await expect(page.getByRole('heading', { name: "Another team's portal" })).toBeVisible();

  expect((await refused).text()).toContain("frame-ancestors 'self'");
  const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
  expect(frame?.url()).not.toContain(`${PREFIX}questions`);
  // The refusal is the policy doing its job here, not a violation by the portal.
  expect(guard.takeViolations().every((text) => /frame-ancestors/.test(text))).toBe(true);
});
