// A real scrape: the portal server running as `npm run dev` runs it (its own process, the three
// mocks with demo data, the watcher reading them every second), `/metrics` read as Prometheus
// reads it (bearer METRICS_TOKEN) and checked by Debian's promtool. CI has promtool (.ci/run
// installs the prometheus package); a machine without it skips only outside CI.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type PortalProcess, startPortalProcess } from '../../scripts/portal-process';

const promtool = spawnSync('promtool', ['--version']).status === 0;
const TOKEN = 'scrape-test-metrics-token';

let server: PortalProcess | null = null;
let url = '';
let dataDir = '';

beforeAll(async () => {
  const port = await freePort();
  dataDir = mkdtempSync(path.join(tmpdir(), 'qi-metrics-scrape-'));
  server = await startPortalProcess(
    {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      MOCK_SEED: 'demo',
      MOCK_SIMULATOR_SECONDS: '0',
      MOCK_LATENCY_MS: '0',
      WATCH_INTERVAL_SECONDS: '1',
      METRICS_TOKEN: TOKEN,
    },
    { mode: 'dev' },
  );
  url = `http://127.0.0.1:${port}/metrics`;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const scrape = () => fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });

/** The scrape once the watcher has read every system (each has its lag). */
async function afterFirstReads(): Promise<string> {
  for (;;) {
    const text = await (await scrape()).text();
    if (['reflexio', 'vertesia', 'bilby'].every((s) => text.includes(`lag_seconds{system="${s}"}`)))
      return text;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('GET /metrics of a running portal server', () => {
  it('answers in Prometheus’ text format with every system’s figures', async () => {
    const reply = await scrape();
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await afterFirstReads();
    expect(text).toContain('qi_watch_leader 1');
    expect(text).toMatch(/^qi_questions_pending\{system="reflexio"\} [1-9]\d*$/m);
    expect(text).toMatch(/^qi_upstream_requests_total\{system="vertesia",method="GET",/m);
  }, 60_000);

  it('is refused without the token', async () => {
    expect((await fetch(url)).status).toBe(401);
  });

  it.skipIf(!promtool && !process.env.CI)(
    'passes promtool check metrics',
    async () => {
      const text = await afterFirstReads();
      const out = execFileSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
      expect(out.trim()).toBe('');
    },
    60_000,
  );
});
