// A reviewer's day through the production setup: nginx with deploy/nginx/questions-inbox.conf,
// the SSO gate, and Reflexio behind the proxy's key. Every test also runs under the browser
// guard (fixtures.ts): no Content-Security-Policy violation, no request to another host.
import { expect, PREFIX, questionList, submitSignInForm, test } from './fixtures';
import { profileOf } from './sso-stand-in';

test('a first visit goes through sign-in and lands back on the same address with the questions', async ({
  page,
  harness,
  mock,
  reviewer,
}) => {
  const pending = (await mock.calls()).filter(
    (call) => call.status === 'pending' && call.org_id === 'org_demo',
  );
  const address = `${harness.origin}${PREFIX}questions?status=pending`;

  await page.goto(address);
  await expect(page).toHaveURL(/\/oauth2\/sign_in\?rd=/);
  await submitSignInForm(page, reviewer);

  await expect(page).toHaveURL(address);
  // Look-alikes (same scope, tool and dedup key) are one row.
  const questions = new Set(
    pending.map((call) => [call.scope_hash, call.tool_name, call.dedup_key].join('\n')),
  );
  await expect(questionList(page).locator(':scope > li')).toHaveCount(questions.size);
  const sample = pending.find((call) => String(call.question_text).length < 120);
  await expect(page.getByRole('link', { name: String(sample?.question_text) })).toBeVisible();
  // The header names who the SSO says is signed in (preferredUsername from /oauth2/userinfo).
  const banner = page.getByRole('banner');
  await expect(banner.getByRole('heading', { name: 'Questions Inbox' })).toBeVisible();
  await expect(
    banner.getByText(`Signed in as ${profileOf(reviewer).preferredUsername}`),
  ).toBeVisible();
  // The guard watches every action, not only the page load: switching the theme once injected a
  // <style> (Mantine pausing transitions) that the CSP refused.
  await banner.getByRole('button', { name: 'Switch to dark theme' }).click();
  await banner.getByRole('button', { name: 'Switch to light theme' }).click();
  await expect(banner.getByRole('button', { name: 'Switch to dark theme' })).toBeVisible();
});

test('a deep link to a question opens it in the drawer, and a reload keeps it open', async ({
  page,
  mock,
  signIn,
  reviewer,
}) => {
  const question = await mock.ask({
    id: 'ptc_proxy_deep_link',
    question: 'Which on-call rotation should own the billing alerts?',
  });
  await signIn(reviewer);

  // Without the portal's server (nginx alone) nothing keeps the team's snippets: the answer box
  // offers none, once the one request that says so has been answered (by nginx's index page).
  const snippets = page.waitForResponse((response) =>
    new URL(response.url()).pathname.endsWith('/portal-api/snippets'),
  );
  await page.goto(`questions/${question.id}`);
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByText(question.question_text, { exact: true })).toBeVisible();
  await expect(drawer.getByRole('textbox', { name: 'Answer' })).toBeVisible();
  await (await snippets).finished();
  // Two frames: what the answer brings is on the page.
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
  );
  await expect(drawer.getByRole('button', { name: 'Team snippets' })).toHaveCount(0);
  await expect(drawer.getByRole('button', { name: 'Save as snippet' })).toHaveCount(0);

  await page.reload();
  await expect(page).toHaveURL(new RegExp(`${PREFIX}questions/${question.id}$`));
  await expect(
    page.getByRole('dialog').getByText(question.question_text, { exact: true }),
  ).toBeVisible();
});

test('an answer sent through the proxy reaches Reflexio', async ({
  page,
  mock,
  signIn,
  reviewer,
}) => {
  const question = await mock.ask({
    id: 'ptc_proxy_answer',
    question: 'Can the nightly export skip the archived projects?',
  });
  await signIn(reviewer);
  await page.goto('questions');
  await questionList(page).getByRole('link', { name: question.question_text }).click();

  const drawer = page.getByRole('dialog');
  await drawer.getByRole('textbox', { name: 'Answer' }).fill('Yes, skip everything archived.');
  await drawer.getByRole('button', { name: 'Answer', exact: true }).click();

  await expect
    .poll(async () => (await mock.find(question.id))?.status, { timeout: 10_000 })
    .toBe('resolved');
  expect((await mock.find(question.id))?.result).toEqual({
    answer: 'Yes, skip everything archived.',
  });
});

test('the strict Content-Security-Policy is enforced on the portal (the guard sees violations)', async ({
  page,
  guard,
  signIn,
  reviewer,
}) => {
  await signIn(reviewer);
  await page.goto('questions');
  await expect(questionList(page)).toBeVisible();

  // An inline script, as an injected or careless one would be: the policy must block it.
  const ran = await page.evaluate(() => {
    const marker = window as unknown as { __inlineRan?: boolean };
    const script = document.createElement('script');
    script.textContent = 'window.__inlineRan = true;';
    // A script element that may run, runs as it is inserted.
    document.body.append(script);
    return marker.__inlineRan === true;
  });
  expect(ran).toBe(false);
  await expect.poll(() => guard.takeViolations().join('\n')).toMatch(/script-src/);
});
