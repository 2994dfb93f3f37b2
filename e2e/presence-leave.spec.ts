import { expect } from '@playwright/test';
import { drawer, row } from './fixtures';
import { ssoTest as test } from './sso-cookie';

/**
 * A colleague who leaves the portal stops showing as viewing at once, not when their presence runs
 * out (60 s here): the page says so on its way out (`pagehide`, a `keepalive` request). Signed in
 * as a deployment signs in (the SSO's cookie, e2e/sso-cookie.ts): a harness that put the reviewer
 * in Playwright's extraHTTPHeaders sent that last request without anyone's name (401), and
 * "alice viewing" stayed until the time to live.
 */
for (const how of ['navigates away', 'closes the tab'] as const) {
  test(`Bob sees Alice viewing, then gone as soon as she ${how}`, async ({ scene }) => {
    test.slow();
    const [id] = (await scene.ask(['Rotate the staging keys?'])) as [string];
    const bob = await (await scene.reviewer('bob')).newPage();
    await bob.goto('questions');
    await expect(bob.getByTestId('claimed-filter')).toBeVisible();

    const alice = await (await scene.reviewer('alice')).newPage();
    await alice.goto(`questions/${id}`);
    await expect(drawer(alice).getByTestId('drawer-team')).toBeVisible();
    const viewing = row(bob, id).getByTestId('row-team');
    await expect(viewing).toHaveText(`alice-${scene.tag} viewing`);

    if (how === 'navigates away') await alice.goto('about:blank');
    else await alice.close({ runBeforeUnload: true });
    // Well within the 60 s time to live: the leave reached the server and the stream.
    await expect(viewing).toBeHidden({ timeout: 5_000 });
  });
}
