import { expect, test } from './fixtures';

test('the inbox opens on the pending questions from the API', async ({ page, mock }) => {
  const pending = (await mock.calls()).filter(
    (call) => call.status === 'pending' && call.org_id === 'org_demo',
  );
  expect(pending.length).toBeGreaterThan(3);

  await page.goto('./');
  await expect(page).toHaveURL(/\/questions$/);
  // Look-alikes (same scope, tool and dedup key) are one row.
  const questions = new Set(
    pending.map((call) => [call.scope_hash, call.tool_name, call.dedup_key].join('\n')),
  );
  expect(questions.size).toBeLessThan(pending.length);
  const rows = page.getByRole('list', { name: 'Questions' }).locator(':scope > li');
  await expect(rows).toHaveCount(questions.size);
  const sample = pending.find((call) => String(call.question_text).length < 200);
  await expect(page.getByRole('link', { name: String(sample?.question_text) })).toBeVisible();
  // The title turns urgent when a question expires within 5 minutes (the demo has some, by its
  // clock); a question within seconds of that line may show either way.
  const left = pending.map((call) => Date.parse(String(call.expires_at)) - Date.now());
  const urgent = left.some((ms) => ms < 4.5 * 60_000)
    ? 'Expiring soon · '
    : left.some((ms) => ms < 5.5 * 60_000)
      ? '(Expiring soon · )?'
      : '';
  await expect(page).toHaveTitle(new RegExp(`^\\(${pending.length}\\) ${urgent}Questions$`));
});

/** Every font (first family, weight, size) that an element with text on the page is drawn in. */
const FONTS_IN_USE = `(() => {
  const fonts = new Set();
  for (const el of document.querySelectorAll('body *')) {
    const text = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!text && !['INPUT', 'SELECT', 'BUTTON'].includes(el.tagName)) continue;
    const style = getComputedStyle(el);
    if (style.display === 'none') continue;
    fonts.add([style.fontFamily.split(',')[0].trim(), style.fontWeight, style.fontSize].join(' '));
  }
  return [...fonts].sort();
})()`;

test('the font warm-up in index.html covers every font the list page draws', async ({
  browser,
  page,
}) => {
  // Without the app's code, the start-up markup stays; prefetch.js still shows the warm-up lines.
  // (The page the browser renders alone, as nginx serves it: a first screen from the server draws
  // the rows themselves, in their own fonts, instead.)
  const bootOnly = await browser.newPage();
  await bootOnly
    .context()
    .addCookies([{ name: 'qi-first-screen', value: 'off', url: test.info().project.use.baseURL }]);
  await bootOnly.route('**/assets/*.js', (route) => route.abort());
  await bootOnly.goto(new URL('questions', test.info().project.use.baseURL).href);
  await expect(bootOnly.locator('html[data-warm-fonts]')).toHaveCount(1);
  const warmed =
    await bootOnly.evaluate(`[...document.querySelectorAll('.font-warmup > *')].map((el) => {
    const style = getComputedStyle(el);
    return [style.fontFamily.split(',')[0].trim(), style.fontWeight, style.fontSize].join(' ');
  })`);
  await bootOnly.close();

  await page.goto('questions');
  await expect(page.getByRole('list', { name: 'Questions' })).toBeVisible();
  const used = (await page.evaluate(FONTS_IN_USE)) as string[];
  expect(used.length).toBeGreaterThan(3);
  expect(used.filter((font) => !(warmed as string[]).includes(font))).toEqual([]);
});
