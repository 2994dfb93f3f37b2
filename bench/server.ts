// The bench's one server: the built portal and the mock backend exactly as `npm start` composes
// them, plus the hand-written floor page under /__floor/, on one origin so both pages get the
// same API, the same cookies and the same CSP.
import { existsSync } from 'node:fs';
import { cp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { createMockBackend, type MockBackend } from '../mock/app.ts';
import { createBilbyMock } from '../mock/bilby/app.ts';
import { BILBY_ORGANIZATION_ID } from '../mock/bilby/seed.ts';
import { createVertesiaMock } from '../mock/vertesia/app.ts';
import {
  type ConfigSource,
  contentSecurityPolicy,
  createPortalApp,
  type MountedSource,
} from '../server/http/portal.ts';
import { servedSystems } from '../server/proxy/systems.ts';
import { createFirstScreen } from '../server/render/first-screen.ts';
import { countingMock, type TrafficRecord } from './tabs.ts';

export const FLOOR_PATH = '/__floor/';

/**
 * Where the bench serves the build from: a copy of it, because `npm start`, the e2e tests or a
 * build started meanwhile rewrite dist/, and a run that loses its index.html halfway measures
 * nothing. The server's render (dist-ssr/) is copied beside it.
 */
export function benchDistDir(root: string): string {
  return path.join(root, 'bench', 'results', 'dist');
}

/** Builds the portal (unless `build` is false) and copies dist/ and dist-ssr/ for the bench. */
export async function prepareBenchDist(options: {
  root: string;
  build: boolean;
  log: (line: string) => void;
}): Promise<string> {
  const { root } = options;
  if (options.build) {
    options.log('Building the portal into dist/…');
    const { build } = await import('vite');
    await build({ root, logLevel: 'warn' });
    // The server's render of the first screen (issue 40), served as `npm start` serves it.
    await build({ root, logLevel: 'warn', build: { ssr: 'src/app/entry-server.tsx' } });
  }
  const distDir = benchDistDir(root);
  const ssrDir = path.join(path.dirname(distDir), 'dist-ssr');
  for (const [from, to] of [
    ['dist', distDir],
    ['dist-ssr', ssrDir],
  ] as const) {
    await rm(to, { recursive: true, force: true });
    await cp(path.join(root, from), to, { recursive: true });
  }
  return distDir;
}

const floorDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'floor');
const FLOOR_FILES: Record<string, string> = {
  '': 'text/html; charset=utf-8',
  'index.html': 'text/html; charset=utf-8',
  'floor.js': 'text/javascript; charset=utf-8',
  'floor.css': 'text/css; charset=utf-8',
  'scale.html': 'text/html; charset=utf-8',
  'scale.js': 'text/javascript; charset=utf-8',
};

export interface BenchServer {
  origin: string;
  mock: MockBackend;
  /** Every /api/ request the mock answered (bench/tabs.ts). */
  traffic: TrafficRecord[];
  close(): Promise<void>;
}

/** Vertesia and Bilby next to Reflexio, as `npm start` composes them (the scale scenario). */
interface OtherSystems {
  sources: MountedSource[];
  configSources: ConfigSource[];
}

export function createBenchApp(
  distDir: string,
  mock: { fetch: (request: Request, env?: unknown) => Response | Promise<Response> },
  others?: OtherSystems,
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
  // The first screen rendered on the server, as `npm start` serves it (issue 40): from the
  // server build next to the copy of the browser's (dist-ssr/ beside dist/).
  const ssrDir = path.join(path.dirname(distDir), 'dist-ssr');
  const firstScreen = existsSync(ssrDir)
    ? createFirstScreen({ ssrDir, assetsDir: path.join(distDir, 'assets'), mode: 'always' })
    : undefined;
  const portal = createPortalApp({ distDir, mock, firstScreen, ...others });
  app.all('*', (c) => portal.fetch(c.req.raw, c.env));
  return app;
}

export async function startBenchServer(options: {
  distDir: string;
  port: number;
  host?: string;
  /** Serve Vertesia and Bilby mocks too, and a config.json naming all three. */
  allSystems?: boolean;
}): Promise<BenchServer> {
  const host = options.host ?? '127.0.0.1';
  const mock = createMockBackend({ seed: 'empty', simulatorIntervalMs: 0, latencyMs: 0 });
  const counted = countingMock(mock.app);
  const quiet = { seed: 'empty', simulatorIntervalMs: 0, latencyMs: 0 } as const;
  const vertesia = options.allSystems ? createVertesiaMock(quiet) : null;
  const bilby = options.allSystems ? createBilbyMock(quiet) : null;
  const served =
    vertesia && bilby
      ? servedSystems({
          vertesia: { mock: vertesia.app },
          bilby: { mock: bilby.app },
          bilbyOrganizationId: BILBY_ORGANIZATION_ID,
        })
      : undefined;
  const others: OtherSystems | undefined = served && {
    sources: served.mounted,
    configSources: served.config,
  };
  const app = createBenchApp(options.distDir, counted, others);
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
        vertesia?.close();
        bilby?.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
