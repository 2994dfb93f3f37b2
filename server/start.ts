import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { createMockBackend, type MockBackend } from '../mock/app';
import { createSourceMocks, type SourceMocks } from '../mock/sources';
import { createPortalApp, normalizeBasePath, type Upstream } from './portal';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dev = process.argv.includes('--dev');
const env = process.env;

const port = Number(env.PORT ?? 5173);
const host = env.HOST ?? 'localhost';
const basePath = normalizeBasePath(env.BASE_PATH);
const distDir = path.join(root, 'dist');

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

function upstreamFromEnv(): Upstream | undefined {
  if (!env.REFLEXIO_URL) return undefined;
  try {
    new URL(env.REFLEXIO_URL);
  } catch {
    console.error(`REFLEXIO_URL is not a valid URL: ${env.REFLEXIO_URL}`);
    process.exit(1);
  }
  return { url: env.REFLEXIO_URL, apiKey: env.REFLEXIO_API_KEY || undefined };
}

function mockFromEnv(): MockBackend {
  const simulatorSeconds = Number(env.MOCK_SIMULATOR_SECONDS ?? 20);
  return createMockBackend({
    apiKey: env.MOCK_API_KEY || null,
    seed: env.MOCK_SEED === 'empty' ? 'empty' : 'demo',
    simulatorIntervalMs: Number.isFinite(simulatorSeconds) ? simulatorSeconds * 1000 : 0,
    latencyMs: Number(env.MOCK_LATENCY_MS ?? 150) || 0,
  });
}

/** The Vertesia and Bilby mocks at `vertesia/…` and `bilby/…`, with the Reflexio mock's settings. */
function sourceMocksFromEnv(mountedAt: string): SourceMocks {
  const simulatorSeconds = Number(env.MOCK_SIMULATOR_SECONDS ?? 20);
  const common = {
    apiKey: env.MOCK_API_KEY || null,
    seed: env.MOCK_SEED === 'empty' ? ('empty' as const) : ('demo' as const),
    latencyMs: Number(env.MOCK_LATENCY_MS ?? 150) || 0,
  };
  // Each asks at a third of the Reflexio rate, so the demo list does not grow three times as fast.
  const simulatorIntervalMs = Number.isFinite(simulatorSeconds) ? simulatorSeconds * 3000 : 0;
  return createSourceMocks({
    basePath: mountedAt,
    vertesia: { ...common, simulatorIntervalMs },
    bilby: { ...common, simulatorIntervalMs },
  });
}

async function main() {
  const upstream = upstreamFromEnv();
  const mock = upstream ? undefined : mockFromEnv();
  if (!dev) await buildIfNeeded();

  const app = createPortalApp({
    basePath: dev ? '/' : basePath,
    distDir: dev ? undefined : distDir,
    mock: mock?.app,
    upstream,
    frameAncestors: env.FRAME_ANCESTORS,
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
  // Seam: the other systems' mocks answer their own prefixes before the portal app sees a request.
  const sourceMocks = sourceMocksFromEnv(dev ? '/' : basePath);
  const honoListener = getRequestListener(
    (request, env) => sourceMocks.route(request, env) ?? app.fetch(request, env),
  );

  let handler: (req: IncomingMessage, res: ServerResponse) => void = honoListener;
  if (dev) {
    const { createServer: createViteServer } = await import('vite');
    const vite = await createViteServer({ root, server: { middlewareMode: true }, appType: 'spa' });
    handler = (req, res) => {
      const url = req.url ?? '/';
      const toServer =
        url.startsWith('/api') || url.startsWith('/__mock') || sourceMocks.handles(url);
      if (toServer) honoListener(req, res);
      else vite.middlewares(req, res);
    };
  }

  const server = createServer(handler);
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

  const stop = () => {
    mock?.close();
    sourceMocks.close();
    server.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
