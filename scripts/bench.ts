// Benchmark of the inbox with 500 pending questions, in headless Chromium against `npm start`'s
// server and mock. Prints medians; never run as a test (shared machines are noisy).
//   npm run bench            (BENCH_RUNS=7 by default)
import { spawn } from 'node:child_process';
import { chromium } from '@playwright/test';
import { findChromium } from './find-chromium.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const PORT = Number(process.env.BENCH_PORT ?? 5191);
const ORIGIN = `http://localhost:${PORT}`;
const COUNT = 500;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

async function waitForServer(): Promise<void> {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${ORIGIN}/config.json`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the server did not start');
}

async function control(tenant: string, path: string, body?: unknown) {
  const response = await fetch(`${ORIGIN}/__mock/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-mock-tenant': tenant },
    body: JSON.stringify(body ?? {}),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
}

async function seed(tenant: string) {
  await control(tenant, 'reset', { seed: 'empty' });
  for (let i = 0; i < COUNT; i++) {
    await control(tenant, 'questions', {
      question: `Benchmark question ${i}: should deployment ${i} of service-${i % 37} go to ${i % 2 ? 'staging' : 'production'}? ${'Context. '.repeat(i % 12)}`,
      answer_format: i % 3 ? 'yes/no' : null,
      tags: [`team-${i % 9}`, i % 4 ? 'infra' : 'billing'],
      user_id: `user${i % 23}@example.com`,
      expires_in_seconds: 120 + i * 97,
    });
  }
}

const server = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts'], {
  env: { ...process.env, PORT: String(PORT), MOCK_SIMULATOR_SECONDS: '0', MOCK_LATENCY_MS: '0' },
  stdio: 'ignore',
});

try {
  await waitForServer();
  const tenant = 'bench';
  await seed(tenant);
  const browser = await chromium.launch({
    executablePath: findChromium() ?? undefined,
    args: ['--disable-gpu', '--disable-quic', '--disable-background-networking'],
  });
  const firstRender: number[] = [];
  const searchRender: number[] = [];
  const idleCpu: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'mock_tenant', value: tenant, url: ORIGIN }]);
    const page = await context.newPage();
    await page.goto(`${ORIGIN}/questions`);
    // Navigation start to 500 rows in the DOM.
    const rendered = await page.waitForFunction(
      (count) =>
        document.querySelectorAll('[data-question-id]').length === count && performance.now(),
      COUNT,
      { polling: 'raf', timeout: 60_000 },
    );
    firstRender.push((await rendered.jsonValue()) as number);

    // A search that narrows 500 rows to a handful: keystroke to rows on screen (includes the 200 ms debounce).
    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.click();
    const start = await page.evaluate(() => performance.now());
    await search.fill('service-7 ');
    const narrowed = await page.waitForFunction(
      () => {
        const rows = document.querySelectorAll('[data-question-id]').length;
        return rows > 0 && rows < 50 && performance.now();
      },
      undefined,
      { polling: 'raf', timeout: 30_000 },
    );
    searchRender.push(((await narrowed.jsonValue()) as number) - start);
    await search.fill('');
    await page.waitForFunction(
      (count) => document.querySelectorAll('[data-question-id]').length === count,
      COUNT,
    );

    // Main-thread time per second while 500 countdowns tick, nothing else happening.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const metric = async () =>
      (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration')
        ?.value ?? 0;
    const before = await metric();
    await page.waitForTimeout(5_000);
    idleCpu.push(((await metric()) - before) / 5);
    await context.close();
  }
  await browser.close();
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  console.log(
    `Questions Inbox benchmark: ${COUNT} pending questions, ${RUNS} runs, medians (min–max)`,
  );
  console.log(
    `  first render, navigation → ${COUNT} rows: ${ms(median(firstRender))} (${ms(Math.min(...firstRender))}–${ms(Math.max(...firstRender))})`,
  );
  console.log(
    `  search narrowing ${COUNT} → few rows (incl. 200 ms debounce): ${ms(median(searchRender))} (${ms(Math.min(...searchRender))}–${ms(Math.max(...searchRender))})`,
  );
  console.log(
    `  main-thread time per second while idle with ${COUNT} countdowns: ${ms(median(idleCpu) * 1000)} (${ms(Math.min(...idleCpu) * 1000)}–${ms(Math.max(...idleCpu) * 1000)})`,
  );
} finally {
  server.kill();
}
