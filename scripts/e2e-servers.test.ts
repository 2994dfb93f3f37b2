// The end-to-end suite starts its own server and never runs against one it did not start (a
// developer's `npm start` on the same port, another checkout's server).
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('playwright.config.ts', () => {
  it('picks a free port of its own when none is named, and never reuses a server', async () => {
    vi.stubEnv('E2E_PORT', undefined);
    const { default: config } = await import('../playwright.config.ts');
    const port = process.env.E2E_PORT;
    expect(port).toMatch(/^\d+$/);
    const server = Array.isArray(config.webServer) ? config.webServer[0] : config.webServer;
    expect(server?.reuseExistingServer).toBe(false);
    expect(server?.env?.PORT).toBe(port);
    expect(config.use?.baseURL).toBe(`http://127.0.0.1:${port}/`);
  });

  it('refuses a port something else already serves', { timeout: 60_000 }, async () => {
    let asked = 0;
    const stranger = createServer((_request, response) => {
      asked++;
      response.end('{}');
    });
    await new Promise<void>((resolve) => stranger.listen(0, 'localhost', resolve));
    const { port } = stranger.address() as AddressInfo;
    try {
      const run = spawn('npx', ['playwright', 'test', 'e2e/smoke.spec.ts', '--project=chromium'], {
        env: { ...process.env, E2E_PORT: String(port), CI: '' },
      });
      let output = '';
      run.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      run.stderr.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      const code = await new Promise<number | null>((resolve) => run.once('exit', resolve));
      expect(code).not.toBe(0);
      expect(output).toContain('is already used');
      // Playwright only checked the port; no journey ran against the stranger.
      expect(asked).toBeLessThanOrEqual(1);
    } finally {
      await new Promise((resolve) => stranger.close(resolve));
    }
  });
});
