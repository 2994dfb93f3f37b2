import AxeBuilder from '@axe-core/playwright';
import {
  type APIRequestContext,
  type APIResponse,
  test as base,
  expect,
  type Locator,
  type Page,
  type Route,
} from '@playwright/test';

/** The mock backend's control surface, scoped to this test's own tenant (its own store, clock and faults). */
export class MockControl {
  constructor(
    private readonly request: APIRequestContext,
    readonly tenant: string,
  ) {}

  async call<T = unknown>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    data?: unknown,
  ): Promise<T> {
    const response = await this.request.fetch(`__mock/${path}`, {
      method,
      // A fresh connection per call: Node's server closes a kept-alive connection after 5 s idle,
      // and a call that reuses one just as it closes fails with "socket hang up" (seen seeding 300
      // questions on a loaded machine, 4 runs in 10). Browsers retry that case; this client does not.
      headers: { 'x-mock-tenant': this.tenant, connection: 'close' },
      data,
    });
    if (!response.ok())
      throw new Error(`mock ${method} ${path}: ${response.status()} ${await response.text()}`);
    const text = await response.text();
    return (text ? JSON.parse(text) : null) as T;
  }

  reset(seed: 'demo' | 'empty' = 'demo') {
    return this.call('POST', 'reset', { seed });
  }

  /** Creates a question as an agent's ask_human would. */
  async ask(question: Record<string, unknown>): Promise<{ id: string; question_text: string }> {
    const { call } = await this.call<{ call: { id: string; question_text: string } }>(
      'POST',
      'questions',
      question,
    );
    return call;
  }

  /**
   * Creates the questions, 25 at a time, and returns their ids in the order given (each in its own
   * request, as agents ask; one after the other, 130 took 4-6 s of a journey on CI's machines).
   * The order they are created in is not kept: give each its own expiry when the list's order matters.
   */
  async askAll(questions: Array<Record<string, unknown>>): Promise<string[]> {
    const ids: string[] = [];
    for (let start = 0; start < questions.length; start += 25) {
      const made = await Promise.all(questions.slice(start, start + 25).map((q) => this.ask(q)));
      ids.push(...made.map((call) => call.id));
    }
    return ids;
  }

  /** Acts on a question as another reviewer would. */
  asOtherReviewer(
    id: string,
    action: 'resolve' | 'answer' | 'not_applicable' | 'cancel' | 'expire',
    body?: unknown,
  ) {
    return this.call('POST', `questions/${id}/${action}`, body ?? {});
  }

  remove(id: string) {
    return this.call('DELETE', `questions/${id}`);
  }

  fault(fault: Record<string, unknown>) {
    return this.call('POST', 'faults', fault);
  }

  clearFaults() {
    return this.call('DELETE', 'faults');
  }

  async calls(): Promise<Array<Record<string, unknown> & { id: string; status: string }>> {
    const state = await this.call<{
      calls: Array<Record<string, unknown> & { id: string; status: string }>;
    }>('GET', 'state');
    return state.calls;
  }

  async find(id: string) {
    return (await this.calls()).find((c) => c.id === id);
  }
}

export const test = base.extend<{
  mock: MockControl;
  undoSeconds: number | null;
  undoWindow: undefined;
  firstScreen: boolean;
  firstScreenCookie: undefined;
}>({
  /**
   * Whether the server renders the first screen into the page (issue 40; on for every page unless
   * FIRST_SCREEN=off). `test.use({ firstScreen: false })` asks for the browser's render alone
   * (cookie `qi-first-screen=off`), as the nginx-only deployment and the demo have it.
   */
  firstScreen: [true, { option: true }],
  firstScreenCookie: [
    async ({ context, baseURL, firstScreen }, use) => {
      if (baseURL && !firstScreen) {
        await context.addCookies([{ name: 'qi-first-screen', value: 'off', url: baseURL }]);
      }
      await use(undefined);
    },
    { auto: true },
  ],
  /**
   * The few seconds a final action waits with Undo (config.json `undoSeconds`): null keeps the
   * config.json the e2e server serves (e2e/config.json: 0, journeys look at what was sent right
   * after sending it); a number rewrites config.json in the browser (`test.use({ undoSeconds: 30 })`,
   * as e2e/undo.spec.ts does), so the app then renders anew over the server's first screen.
   */
  undoSeconds: [null, { option: true }],
  undoWindow: [
    async ({ context, undoSeconds }, use) => {
      if (undoSeconds === null) {
        await use(undefined);
        return;
      }
      await context.route(/\/config\.json$/, async (route) => {
        const response = await route.fetch();
        const config = (await response.json()) as Record<string, unknown>;
        await route.fulfill({ response, json: { ...config, undoSeconds } });
      });
      await use(undefined);
    },
    { auto: true },
  ],
  // Automatic: every test gets its own tenant of the mock, even one that never calls it.
  mock: [
    async ({ context, request, baseURL }, use, testInfo) => {
      const tenant = `e2e-${testInfo.testId}-${testInfo.repeatEachIndex}-${testInfo.retry}`;
      if (!baseURL) throw new Error('baseURL is not set');
      await context.addCookies([{ name: 'mock_tenant', value: tenant, url: baseURL }]);
      const control = new MockControl(request, tenant);
      await control.reset();
      await use(control);
    },
    { auto: true },
  ],
});

export { expect };

export function row(page: Page, id: string) {
  return page.locator(`[data-question-id="${id}"]`);
}

export function drawer(page: Page) {
  return page.getByRole('dialog', { name: 'Question' });
}

/** Screenshots for people to look at; not compared. */
export async function snapshot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/screenshots/${name}.png` });
}

/**
 * Holds back the page's requests that `pattern` matches until the returned function is called:
 * a system's list, or a part's code, kept from arriving until the journey has measured or done
 * what must come first (never a timed delay, which races a loaded machine). Releasing waits for a
 * request to have matched, and fails if none does: a pattern that names a file the build no
 * longer makes (its chunks renamed or merged) would otherwise hold nothing back and let the
 * journey pass without testing anything.
 */
export async function holdBack(page: Page, pattern: RegExp): Promise<() => Promise<void>> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = 0;
  await page.route(pattern, async (route) => {
    held += 1;
    await released;
    await route.continue();
  });
  return async () => {
    await expect
      .poll(() => held, { message: `no request matched ${pattern} to be held back` })
      .toBeGreaterThan(0);
    release();
  };
}

/**
 * The real answer to a request a journey edits on its way (`page.route`), or null when the page
 * has given the request up (it navigated, or the journey unrouted). Over a fresh connection:
 * `route.fetch` keeps connections alive, and one the portal's server closes (after 5 s idle) just
 * as it is reused fails with "socket hang up", which a browser retries and `route.fetch` does not.
 * Any failure reaches the page as a network error, never as a request left waiting forever: that
 * is how a loaded CI run once saw a question's link open on an empty list (its first list read
 * hung up on a connection the previous page had used 5 s before).
 */
export async function fetchRouted(route: Route): Promise<APIResponse | null> {
  try {
    return await route.fetch({ headers: { ...route.request().headers(), connection: 'close' } });
  } catch {
    await route.abort('failed').catch(() => {});
    return null;
  }
}

/**
 * The app runs the page: with a first screen from the server, the rows are on screen before the
 * app's code has run, so a journey that needs the app itself (its clock, its requests, the place of
 * what comes after) waits for this (main.tsx sets html[data-hydrated] once it has taken over).
 */
export async function expectAppRunning(page: Page) {
  await expect(page.locator('html[data-hydrated]')).toBeAttached();
}

/** An axe scan with no violations allowed. */
export async function expectNoA11yViolations(page: Page, include?: string) {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  const summary = results.violations.map(
    (v) =>
      `${v.id}: ${v.help} (${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join(' | ')})`,
  );
  expect(summary).toEqual([]);
}

/**
 * Every row of a short list is in the page: its rows below the window come a moment after the
 * first screenful (the list is aria-busy until then). Wait for this before reading all rows.
 */
export async function expectListComplete(page: Page) {
  const list = page.getByRole('list', { name: 'Questions' });
  await expect(list.locator('[data-question-id]').first()).toBeVisible();
  await expect(list).not.toHaveAttribute('aria-busy', 'true');
}

/** Wide enough for its longest choice: nothing cut short with an ellipsis. */
export async function expectWholeChoices(select: Locator) {
  const widths = await select.evaluate((element: HTMLSelectElement) => {
    const shown = element.getBoundingClientRect().width;
    element.style.width = 'max-content';
    const needed = element.getBoundingClientRect().width;
    element.style.removeProperty('width');
    return { shown, needed };
  });
  expect(widths.needed).toBeLessThanOrEqual(widths.shown + 0.5);
}
