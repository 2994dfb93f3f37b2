import { existsSync, readdirSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { createMockBackend, DEFAULT_MAX_TENANTS, type MockBackend } from '../mock/app';
import { DEFAULT_MAX_BODY_BYTES } from './body-limit';
import { createPortalServer } from './http-server';
import { createPortalApp, normalizeBasePath, type Upstream } from './portal';
import { DEFAULT_UPSTREAM_TIMEOUT_MS, parseUpstreamUrl } from './proxy';
import { withRequestLog } from './request-log';
import { closeGracefullyOnSignals } from './shutdown';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dev = process.argv.includes('--dev');
const env = process.env;
// The compiled server (`npm run serve`, dist-server/start.js) never builds: it runs without Vite.
const production = process.argv.includes('--production') || env.NODE_ENV === 'production';

const port = Number(env.PORT ?? 5173);
const host = env.HOST ?? 'localhost';
const basePath = normalizeBasePath(env.BASE_PATH);
const distDir = path.join(root, 'dist');
const maxBodyBytes = positiveInteger('MAX_BODY_BYTES', DEFAULT_MAX_BODY_BYTES);

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce(
    (newest, entry) => Math.max(newest, newestMtime(path.join(target, entry))),
    stat.mtimeMs,
  );
}

/** Builds `dist/` when it is missing or older than any source it is made from. */
async function buildIfNeeded(): Promise<void> {
  const builtAt = newestMtime(path.join(distDir, 'index.html'));
  const inputs = [
    'src',
    'public',
    'index.html',
    'vite.config.ts',
    'postcss.config.cjs',
    'package-lock.json',
  ];
  const sourcesAt = Math.max(...inputs.map((input) => newestMtime(path.join(root, input))));
  if (builtAt >= sourcesAt) return;
  console.log(
    builtAt === 0 ? 'Building the portal (first run)…' : 'Sources changed: rebuilding the portal…',
  );
  const { build } = await import('vite');
  await build({ root, logLevel: 'warn' });
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** A whole number of at least `min` from the environment, or its default. */
function positiveInteger(name: string, fallback: number, min = 1): number {
  const value = env[name];
  if (value === undefined || value.trim() === '') return fallback;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < min) {
    fail(`${name} must be a whole number of at least ${min}, not "${value}".`);
  }
  return parsed;
}

function upstreamFromEnv(): Upstream | undefined {
  if (!env.REFLEXIO_URL) return undefined;
  const parsed = parseUpstreamUrl(env.REFLEXIO_URL);
  if (!parsed.ok) fail(parsed.message);
  return {
    url: parsed.url.href,
    apiKey: env.REFLEXIO_API_KEY || undefined,
    timeoutMs: positiveInteger('UPSTREAM_TIMEOUT_MS', DEFAULT_UPSTREAM_TIMEOUT_MS),
  };
}

function mockFromEnv(): MockBackend {
  const simulatorSeconds = Number(env.MOCK_SIMULATOR_SECONDS ?? 20);
  const apiKey = env.MOCK_API_KEY || null;
  return createMockBackend({
    apiKey,
    controlKey: apiKey,
    maxTenants: positiveInteger('MOCK_MAX_TENANTS', DEFAULT_MAX_TENANTS),
    maxBodyBytes,
    seed: env.MOCK_SEED === 'empty' ? 'empty' : 'demo',
    simulatorIntervalMs: Number.isFinite(simulatorSeconds) ? simulatorSeconds * 1000 : 0,
    latencyMs: Number(env.MOCK_LATENCY_MS ?? 150) || 0,
  });
}

async function main() {
  const upstream = upstreamFromEnv();
  const mock = upstream ? undefined : mockFromEnv();
  if (production && !existsSync(path.join(distDir, 'index.html'))) {
    console.error(`No built portal in ${distDir}: run \`npm run build\` first.`);
    process.exit(1);
  }
  if (!dev && !production) await buildIfNeeded();

  const app = createPortalApp({
    basePath: dev ? '/' : basePath,
    distDir: dev ? undefined : distDir,
    mock: mock?.app,
    upstream,
    frameAncestors: env.FRAME_ANCESTORS,
    maxBodyBytes,
    sourceMaps: env.SOURCE_MAPS === '1',
    allowedHosts: [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      `${host}:${port}`,
      ...(env.ALLOWED_HOSTS ?? '')
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    ],
  });
  const honoListener = getRequestListener(app.fetch);

  let handler: (req: IncomingMessage, res: ServerResponse) => void = honoListener;
  if (dev) {
    const { createServer: createViteServer } = await import('vite');
    const vite = await createViteServer({ root, server: { middlewareMode: true }, appType: 'spa' });
    handler = (req, res) => {
      const url = req.url ?? '/';
      if (url.startsWith('/api') || url.startsWith('/__mock') || url === '/healthz')
        honoListener(req, res);
      else vite.middlewares(req, res);
    };
  }

  // The request log wraps the server's every way in, refusals included (Expect: 100-continue).
  const server = createPortalServer(handler, {
    maxBodyBytes,
    wrap: dev ? undefined : (listener) => withRequestLog(listener),
  });
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EADDRINUSE') {
      console.error(
        `Port ${port} is in use. Stop the other server or pick another: PORT=5174 npm start`,
      );
    } else {
      console.error(error);
    }
    process.exit(1);
  });
  server.listen(port, host, () => {
    const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
    const url = `http://${shownHost}:${port}${dev ? '/' : basePath}`;
    const backend = upstream
      ? `proxying /api to ${upstream.url}${upstream.apiKey ? ' (with REFLEXIO_API_KEY)' : ''}`
      : 'mock Reflexio API with demo data';
    console.log(`\n  Questions Inbox ${dev ? '(dev, hot reload) ' : ''}is running at ${url}`);
    console.log(`  Backend: ${backend}\n`);
  });

  closeGracefullyOnSignals(server, { beforeClose: () => mock?.close() });
}

void main();
