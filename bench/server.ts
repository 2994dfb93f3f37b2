// The bench's one server: the built portal and the mock backend exactly as `npm start` composes
// them, plus the hand-written floor page under /__floor/, on one origin so both pages get the
// same API, the same cookies and the same CSP.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { createMockBackend, type MockBackend } from '../mock/app.ts';
import { contentSecurityPolicy, createPortalApp } from '../server/portal.ts';
import { countingMock, type TrafficRecord } from './tabs.ts';

export const FLOOR_PATH = '/__floor/';

const floorDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'floor');
const FLOOR_FILES: Record<string, string> = {
  '': 'text/html; charset=utf-8',
  'index.html': 'text/html; charset=utf-8',
  'floor.js': 'text/javascript; charset=utf-8',
  'floor.css': 'text/css; charset=utf-8',
};

export interface BenchServer {
  origin: string;
  mock: MockBackend;
  /** Every /api/ request the mock answered (bench/tabs.ts). */
  traffic: TrafficRecord[];
  close(): Promise<void>;
}

export function createBenchApp(
  distDir: string,
  mock: { fetch: (request: Request, env?: unknown) => Response | Promise<Response> },
): Hono {
  const app = new Hono();
  const csp = contentSecurityPolicy();
  // Mounted before the portal, whose catch-all would answer with its own index.html.
  app.get(`${FLOOR_PATH}:file{.*}`, async (c) => {
    const name = c.req.param('file');
    const type = FLOOR_FILES[name];
    if (type === undefined) return c.text('Not found', 404);
    const body = await readFile(path.join(floorDir, name || 'index.html'));
    return c.body(body, 200, {
      'Content-Type': type,
      'Content-Security-Policy': csp,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
  });
  const portal = createPortalApp({ distDir, mock });
  app.all('*', (c) => portal.fetch(c.req.raw, c.env));
  return app;
}

export async function startBenchServer(options: {
  distDir: string;
  port: number;
  host?: string;
}): Promise<BenchServer> {
  const host = options.host ?? '127.0.0.1';
  const mock = createMockBackend({ seed: 'empty', simulatorIntervalMs: 0, latencyMs: 0 });
  const counted = countingMock(mock.app);
  const app = createBenchApp(options.distDir, counted);
  const server: Server = createServer(getRequestListener(app.fetch));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  return {
    origin: `http://${host}:${options.port}`,
    mock,
    traffic: counted.records,
    close: () =>
      new Promise<void>((resolve) => {
        mock.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
