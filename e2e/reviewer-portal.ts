import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, startPortalProcess } from '../scripts/portal-process.ts';

/**
 * A portal server of a journey's own (a worker's, in practice), behind what an SSO proxy would
 * set: REVIEWER_HEADER=X-Forwarded-Email, its embedded trail in a temporary DATA_DIR, the mocks
 * empty and quick, on a free port. `env` adds or overrides settings. `stop` also removes its data.
 */
export async function startReviewerPortal(
  env: Record<string, string> = {},
): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'qi-e2e-portal-'));
  const server = await startPortalProcess({
    ...process.env,
    PORT: String(port),
    REVIEWER_HEADER: 'X-Forwarded-Email',
    DATA_DIR: dataDir,
    MOCK_SEED: 'empty',
    MOCK_SIMULATOR_SECONDS: '0',
    MOCK_LATENCY_MS: '0',
    ...env,
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    async stop() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
