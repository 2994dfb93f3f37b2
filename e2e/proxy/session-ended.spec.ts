// The SSO session ends while a reviewer is typing an answer. Proxies answer the next API call
// differently (deploy/nginx/questions-inbox.conf hands it to the SSO, which answers as each kind
// of product does); the portal must see every form as "session ended", keep the draft, and
// bring the reviewer back to the same question after signing in again.
import { expect, PREFIX, submitSignInForm, test } from './fixtures';
import { POLL_INTERVAL_MS } from './harness';
import type { ExpiryMode } from './sso-stand-in';

const forms: Array<{ mode: ExpiryMode; what: string }> = [
  { mode: '401', what: 'a 401' },
  { mode: '403', what: 'a 403 HTML page' },
  { mode: '302', what: 'a redirect to the sign-in page' },
  { mode: 'html', what: 'the sign-in page itself (200 text/html)' },
];

for (const { mode, what } of forms) {
  test(`a session that ends mid-draft (answered with ${what}) keeps the draft through signing in again`, async ({
    page,
    harness,
    mock,
    signIn,
    reviewer,
  }) => {
    const question = await mock.ask({
      id: `ptc_proxy_expiry_${mode}`,
      question: `Which maintenance window suits the ${mode} migration?`,
    });
    const draft = `Sunday 02:00 UTC — after the backup finishes (${mode})`;
    await signIn(reviewer);
    const address = `${harness.origin}${PREFIX}questions/${question.id}`;
    await page.goto(address);

    const drawer = page.getByRole('dialog');
    const answer = drawer.getByRole('textbox', { name: 'Answer' });
    await answer.fill(draft);
    await expect(page.getByText('Draft saved')).toBeVisible();

    expect(harness.sso.end(reviewer, mode)).toBe(1);

    // The next poll meets the proxy's answer. With the drawer open, the reviewer needs the
    // notice where they are: the last one in the page is the drawer's, when it has its own.
    const ended = page.getByRole('alert').filter({ hasText: 'Your session has ended' }).last();
    await expect(ended).toBeVisible({ timeout: POLL_INTERVAL_MS * 3 });
    // The notice may come first from the portal server's own calls (presence, who is signed in):
    // the SSO answers those as API calls too, and the page stops calling once it knows.
    await expect
      .poll(
        () =>
          harness.sso
            .answers()
            .some((answered) => answered.kind === 'api-expired' && answered.mode === mode),
        {
          message: 'the SSO answered an API call of the ended session',
          timeout: POLL_INTERVAL_MS * 3,
        },
      )
      .toBe(true);
    await expect(answer).toHaveValue(draft);

    const signInAgain = ended.getByRole('link', { name: 'Sign in again' });
    expect(await signInAgain.getAttribute('href')).toContain(`rd=${encodeURIComponent(address)}`);
    // A real click: the link must not sit under the drawer's overlay.
    await signInAgain.click({ timeout: 5_000 });
    await submitSignInForm(page, reviewer);

    await expect(page).toHaveURL(address);
    const drawerAgain = page.getByRole('dialog');
    await expect(drawerAgain.getByText(question.question_text, { exact: true })).toBeVisible();
    await expect(drawerAgain.getByRole('textbox', { name: 'Answer' })).toHaveValue(draft);
    await expect(page.getByRole('alert').filter({ hasText: 'Your session has ended' })).toHaveCount(
      0,
    );

    await drawerAgain.getByRole('button', { name: 'Answer', exact: true }).click();
    await expect
      .poll(async () => (await mock.find(question.id))?.status, { timeout: 10_000 })
      .toBe('resolved');
    expect((await mock.find(question.id))?.result).toEqual({ answer: draft });
  });
}
