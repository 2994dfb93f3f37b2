import {
  type APIRequestContext,
  type BrowserContext,
  test as base,
  expect,
  type FrameLocator,
  type Page,
} from '@playwright/test';
import { MockControl } from '../fixtures';
import {
  findNginx,
  NGINX_MISSING,
  PREFIX,
  type ProxyHarness,
  STRIPPED_PREFIX,
  startProxyHarness,
} from './harness';

export { expect, PREFIX, STRIPPED_PREFIX };

/**
 * Watches everything the browser does during a test: Content-Security-Policy violations (the
 * `securitypolicyviolation` event in every frame, and Chromium's console errors about the
 * policy), page errors, and requests to any origin the test did not allow (third-party hosts).
 * The test fails at the end if any happened, unless it takes them with `take…()`.
 */
export class BrowserGuard {
  readonly allowedOrigins = new Set<string>();
  private violations: string[] = [];
  private foreignRequests: string[] = [];
  private pageErrors: string[] = [];

  async attach(context: BrowserContext): Promise<void> {
    await context.exposeBinding('__qiReportCspViolation', ({ frame }, text: string) => {
      this.violations.push(`${text} (in ${frame.url()})`);
    });
    await context.addInitScript(() => {
      const report = (window as unknown as { __qiReportCspViolation?: (t: string) => void })
        .__qiReportCspViolation;
      window.addEventListener(
        'securitypolicyviolation',
        (event) => {
          report?.(
            `${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
          );
        },
        true,
      );
    });
    context.on('console', (message) => {
      const text = message.text();
      if (/Content Security Policy|Refused to (load|execute|apply|frame|connect)/i.test(text)) {
        this.violations.push(`console: ${text}`);
      }
    });
    context.on('weberror', (error) => {
      this.pageErrors.push(String(error.error()));
    });
    context.on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
      if (!this.allowedOrigins.has(url.origin)) this.foreignRequests.push(request.url());
    });
  }

  /** Hands over (and clears) the violations seen so far, for tests that cause one on purpose. */
  takeViolations(): string[] {
    const taken = this.violations;
    this.violations = [];
    return taken;
  }

  takeForeignRequests(): string[] {
    const taken = this.foreignRequests;
    this.foreignRequests = [];
    return taken;
  }

  verify(): void {
    expect(this.violations, 'Content-Security-Policy violations').toEqual([]);
    expect(this.foreignRequests, 'requests to hosts other than the proxy').toEqual([]);
    expect(this.pageErrors, 'uncaught errors in the page').toEqual([]);
  }
}

interface WorkerFixtures {
  stack: ProxyHarness | null;
  mockRequest: APIRequestContext;
}

interface TestFixtures {
  /** The running setup; the test is skipped when nginx is missing (it fails in CI). */
  harness: ProxyHarness;
  /** The mock Reflexio's control surface, directly (never through nginx). */
  mock: MockControl;
  guard: BrowserGuard;
  /** Signs the browser context in as `username` the way the SSO form does, without the UI. */
  signIn: (username: string) => Promise<void>;
  /** A user name of this test's own, so ending its session touches no other test. */
  reviewer: string;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  stack: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies by destructuring.
    async ({}, use) => {
      const nginx = findNginx();
      if (!nginx) {
        if (process.env.CI) throw new Error(`${NGINX_MISSING}\nCI needs nginx: failing.`);
        console.warn(`\n${NGINX_MISSING}\nSkipping them on this machine.\n`);
        await use(null);
        return;
      }
      const harness = await startProxyHarness(nginx);
      try {
        await use(harness);
      } finally {
        await harness.stop();
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],

  mockRequest: [
    async ({ playwright, stack }, use) => {
      const request = await playwright.request.newContext({
        baseURL: stack ? `${stack.mockOrigin}/` : undefined,
      });
      await use(request);
      await request.dispose();
    },
    { scope: 'worker' },
  ],

  harness: async ({ stack }, use) => {
    test.skip(!stack, NGINX_MISSING);
    await use(stack as ProxyHarness);
  },

  baseURL: async ({ stack }, use) => {
    await use(stack ? `${stack.origin}${PREFIX}` : undefined);
  },

  mock: async ({ harness: _harness, mockRequest }, use) => {
    // nginx strips cookies on the way to Reflexio, so the portal always meets the mock's
    // default tenant; each worker has its own mock, and its tests run one after another.
    const control = new MockControl(mockRequest, 'default');
    await control.reset('demo');
    await use(control);
  },

  guard: async ({ context, stack }, use) => {
    const guard = new BrowserGuard();
    if (stack) {
      guard.allowedOrigins.add(stack.origin);
      guard.allowedOrigins.add(stack.strippedOrigin);
    }
    await guard.attach(context);
    await use(guard);
    guard.verify();
  },

  // Every test with a page runs under the guard.
  page: async ({ page, guard: _guard }, use) => {
    await use(page);
  },

  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies by destructuring.
  reviewer: async ({}, use, testInfo) => {
    await use(`reviewer-${testInfo.testId.replace(/[^A-Za-z0-9]/g, '').slice(-12)}`);
  },

  signIn: async ({ context, harness }, use) => {
    await use(async (username) => {
      const response = await context.request.post(`${harness.origin}${PREFIX}oauth2/sign_in`, {
        form: { username, rd: PREFIX },
        maxRedirects: 0,
      });
      expect(response.status(), await response.text()).toBe(302);
    });
  },
});

/** The inbox's list of questions, in the page or in a frame. */
export function questionList(scope: Page | FrameLocator) {
  return scope.getByRole('list', { name: 'Questions' });
}

/** Fills in and submits the SSO stand-in's sign-in form. */
export async function submitSignInForm(page: Page, username: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Example SSO' })).toBeVisible();
  await page.getByLabel('Username').fill(username);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
