// The static demo's Service Worker applies the portal server's cross-site rules and page headers
// (issue 26, item 10): a form on another site cannot plant a question in a visitor's demo, and
// every page the worker serves carries the portal's CSP with its frame-ancestors.
import { demoIds } from '../../mock/seed';
import { expect, row, test } from './fixtures';

const firstVisit = { timeout: 30_000 };

test('a form on another site cannot plant a question or a fault, or move Sam, in the visitor’s demo', async ({
  page,
  demoSite,
}) => {
  await page.goto('./');
  await expect(row(page, demoIds.pendingYesNo)).toBeVisible(firstVisit);
  const target = new URL('__mock/questions', demoSite.url).href;
  const faults = new URL('__mock/faults', demoSite.url).href;
  const colleague = new URL('portal-api/__demo/colleague', demoSite.url).href;
  // Another site's page, as the visitor's browser would load it.
  await page.route('http://evil.example/**', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html>
        <form id="plant" method="post" action="${target}" enctype="text/plain">
          <input name='{"question":"Planted from another site","x":"' value='"}'>
        </form>
        <form id="fault" method="post" action="${faults}" enctype="text/plain">
          <input name='{"kind":"status","status":500,"count":1000,"x":"' value='"}'>
        </form>
        <form id="colleague" method="post" action="${colleague}" enctype="text/plain">
          <input name='{"action":"claim","question":{"source":"reflexio","id":"${demoIds.pendingYesNo}"},"x":"' value='"}'>
        </form>`,
    }),
  );
  for (const [form, action] of [
    ['plant', target],
    ['fault', faults],
    ['colleague', colleague],
  ] as const) {
    await page.goto('http://evil.example/');
    const answered = page.waitForResponse((response) => response.request().method() === 'POST');
    await page.evaluate((id) => (document.getElementById(id) as HTMLFormElement).submit(), form);
    const response = await answered;
    expect(response.status(), form).toBe(403);
    expect(response.fromServiceWorker(), form).toBe(true);
    // The refusal is the page now: the next navigation must not cut into this one.
    await page.waitForURL(action);
    await expect(page.getByText('Cross-site request refused')).toBeVisible();
  }
  await page.goto('questions');
  await expect(row(page, demoIds.pendingYesNo)).toBeVisible();
  await expect(page.getByText('Planted from another site')).toHaveCount(0);
  const team = await page.evaluate(async () => (await fetch('portal-api/team/state')).json());
  expect(team).toMatchObject({ claims: [] });
  await expect(page.getByText(/unavailable|could not be read/)).toHaveCount(0);
});

test('every page the worker serves, index.html included, has the portal’s CSP and frame-ancestors', async ({
  page,
}) => {
  await page.goto('./');
  await expect(row(page, demoIds.pendingYesNo)).toBeVisible(firstVisit);
  for (const path of ['index.html', './', 'questions', 'config.json']) {
    const response = await page.goto(path);
    expect(response?.fromServiceWorker(), path).toBe(true);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp, path).toContain("frame-ancestors 'self'");
    expect(csp, path).toContain("script-src 'self'");
    expect(response?.headers()['x-content-type-options'], path).toBe('nosniff');
  }
  const api = await page.goto('api/pending_tool_calls');
  expect(api?.headers()['content-security-policy']).toContain("default-src 'none'");
});
