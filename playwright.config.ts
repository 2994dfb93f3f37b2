import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { findChromium } from './scripts/find-chromium.ts';
import { freePort } from './scripts/portal-process.ts';

// The suite starts its own server, on a free port unless E2E_PORT names one, and never takes
// over a server it did not start: one found on the port fails the run (reuseExistingServer is
// off). The port is chosen once, by the runner; its workers inherit it through the environment.
process.env.E2E_PORT ??= String(await freePort());
const port = Number(process.env.E2E_PORT);
// Debian's Chromium where there is one (CHROMIUM_PATH overrides), else Playwright's own browser.
const chromium = {
  ...devices['Desktop Chrome'],
  launchOptions: {
    executablePath: findChromium() ?? undefined,
    // The address bar's popup renderer Chromium gives every new window (each test's context)
    // loads its UI for about a second of CPU: not the portal's, and a 2-core machine runs the
    // suite (bench/measure.ts LAUNCH_ARGS says more).
    args: [
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--no-first-run',
      '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
    ],
  },
};

export default defineConfig({
  testDir: 'e2e',
  // The e2e/proxy and e2e/demo folders have projects of their own. (A glob like '**/demo/**' is
  // matched against the absolute path: a checkout inside a folder named demo then found no tests.)
  testIgnore: /[\\/]e2e[\\/](proxy|demo)[\\/]/,
  outputDir: 'test-results',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  forbidOnly: !!process.env.CI,
  // CI machines are shared: a journey that takes 10 s idle has taken 32 s there. A hang still fails, just later.
  timeout: process.env.CI ? 60_000 : 30_000,
  // Under the same load a lazy chunk has taken over 7 s to arrive.
  expect: { timeout: process.env.CI ? 15_000 : 7_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    // 127.0.0.1, not localhost: Playwright's own requests (APIRequestContext, route.fetch) look a
    // name up for IPv6 and IPv4 both, and on machines whose /etc/hosts has no ::1 entry the IPv6
    // lookup goes to the DNS server, where every 50th took 5 s (measured): about one mock call in
    // 60 stalled a journey 5 s. Chromium resolves localhost itself; an address needs no lookup.
    baseURL: `http://127.0.0.1:${port}/`,
    // Locally a failing journey keeps its trace. On CI none is recorded: a run there is a fresh
    // clone that keeps only its log, and recording every journey's trace took about 30 % of the
    // journeys' time on these 2-core machines (sources + inbox specs: 143 s with, 101 s without).
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: chromium,
    },
    {
      // The built portal behind Debian's nginx with deploy/nginx/*.conf, an SSO stand-in and
      // the mock Reflexio (e2e/proxy/harness.ts starts them; it skips without nginx).
      name: 'proxy',
      testDir: 'e2e/proxy',
      testIgnore: [],
      use: chromium,
    },
    // dist-demo/ (npm run build:demo, built once by the setup project) on a plain static file
    // server under a sub-path: the mock runs in the page's Service Worker (e2e/demo/fixtures.ts).
    {
      name: 'demo-build',
      testDir: 'e2e/demo',
      testIgnore: [],
      testMatch: /build\.setup\.ts$/,
    },
    {
      name: 'demo',
      testDir: 'e2e/demo',
      testIgnore: [],
      dependencies: ['demo-build'],
      // Every test is a first visit: the worker caches the whole app before the portal starts,
      // which on a loaded 2-core machine took up to 50 s (13-24 s at a load of 20).
      timeout: 120_000,
      expect: { timeout: 15_000 },
      use: chromium,
    },
  ],
  webServer: {
    command: 'node --import tsx server/start.ts',
    url: `http://127.0.0.1:${port}/config.json`,
    reuseExistingServer: false,
    timeout: 120_000,
    // Some journeys seed 1 MB records through the mock, past the default 1 MB body cap.
    env: {
      PORT: String(port),
      MOCK_SIMULATOR_SECONDS: '0',
      MOCK_LATENCY_MS: '0',
      // Each test resets its own tenant of the Reflexio mock to the demo data; the Vertesia and
      // Bilby mocks start empty unless a journey (e2e/sources.spec.ts) seeds them.
      MOCK_SEED: 'empty',
      MAX_BODY_BYTES: String(8 * 1024 * 1024),
      // config.json as the build's, with no Undo wait: journeys look at what was sent right after
      // sending it (e2e/undo.spec.ts sets its own). Served by the server, so the first screen it
      // renders and the app that takes it over read the same settings.
      CONFIG_FILE: 'e2e/config.json',
      // A trail of this run's own: journeys answer the same demo ids in tenants of their own, and
      // a trail kept from an earlier run would show its entries in their History.
      DATA_DIR: path.join(os.tmpdir(), 'qi-e2e-trail', `${process.pid}-${port}`),
    },
  },
});
