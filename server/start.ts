import { existsSync, readdirSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { createMockBackend, DEFAULT_MAX_TENANTS, type MockBackend } from '../mock/app';
import { createBilbyMock } from '../mock/bilby/app';
import { BILBY_ORGANIZATION_ID } from '../mock/bilby/seed';
import { createVertesiaMock } from '../mock/vertesia/app';
import { createAudit, scheduleRetention } from './audit';
import { auditConfigFromEnv } from './audit-config';
import { DEFAULT_MAX_BODY_BYTES } from './body-limit';
import { openTrail, TrailOpenError } from './db/open';
import { createPortalServer } from './http-server';
import {
  type ConfigSource,
  createPortalApp,
  type MountedSource,
  normalizeBasePath,
  type Upstream,
} from './portal';
import { DEFAULT_UPSTREAM_TIMEOUT_MS, parseUpstreamUrl } from './proxy';
import { withRequestLog } from './request-log';
import { closeGracefullyOnSignals } from './shutdown';
import { servedSystems } from './systems';

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
const auditSettings = auditConfigFromEnv(env);
if (!auditSettings.ok) fail(auditSettings.message);
const auditConfig = auditSettings.config;

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

/** `<SYSTEM>_URL` and `<SYSTEM>_API_KEY`: a real server instead of the mock. */
function upstreamFromEnv(system = 'REFLEXIO'): Upstream | undefined {
  const value = env[`${system}_URL`];
  if (!value) return undefined;
  const parsed = parseUpstreamUrl(value, `${system}_URL`);
  if (!parsed.ok) fail(parsed.message);
  return {
    url: parsed.url.href,
    apiKey: env[`${system}_API_KEY`] || undefined,
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

interface OtherSystems {
  mounted: MountedSource[];
  config: ConfigSource[];
  close(): void;
}

/** Vertesia and Bilby: each its real server (`VERTESIA_URL`, `BILBY_URL`) or its mock. */
function otherSystemsFromEnv(): OtherSystems {
  const simulatorSeconds = Number(env.MOCK_SIMULATOR_SECONDS ?? 20);
  const common = {
    apiKey: env.MOCK_API_KEY || null,
    seed: env.MOCK_SEED === 'empty' ? ('empty' as const) : ('demo' as const),
    latencyMs: Number(env.MOCK_LATENCY_MS ?? 150) || 0,
    // Each asks at a third of the Reflexio rate, so the demo list does not grow three times as fast.
    simulatorIntervalMs: Number.isFinite(simulatorSeconds) ? simulatorSeconds * 3000 : 0,
  };
  const closers: (() => void)[] = [];
  const vertesiaUpstream = upstreamFromEnv('VERTESIA');
  const bilbyUpstream = upstreamFromEnv('BILBY');
  const vertesiaMock = vertesiaUpstream ? undefined : createVertesiaMock(common);
  const bilbyMock = bilbyUpstream ? undefined : createBilbyMock(common);
  if (vertesiaMock) closers.push(vertesiaMock.close);
  if (bilbyMock) closers.push(bilbyMock.close);
  const organizationId = bilbyUpstream ? env.BILBY_ORGANIZATION_ID : BILBY_ORGANIZATION_ID;
  return {
    ...servedSystems({
      vertesia: { mock: vertesiaMock?.app, upstream: vertesiaUpstream },
      bilby: { mock: bilbyMock?.app, upstream: bilbyUpstream },
      bilbyOrganizationId: organizationId,
    }),
    close: () => {
      for (const close of closers) close();
    },
  };
}

async function main() {
  const upstream = upstreamFromEnv();
  const mock = upstream ? undefined : mockFromEnv();
  const others = otherSystemsFromEnv();
  if (production && !existsSync(path.join(distDir, 'index.html'))) {
    console.error(`No built portal in ${distDir}: run \`npm run build\` first.`);
    process.exit(1);
  }
  if (!dev && !production) await buildIfNeeded();
  const trail = await openTrail(auditConfig).catch((error: unknown) =>
    fail(error instanceof TrailOpenError ? error.message : String(error)),
  );
  const audit = createAudit({
    db: trail.db,
    identity: auditConfig.identity,
    answers: auditConfig.answers,
  });
  const stopRetention = scheduleRetention(trail.db, auditConfig.retentionDays);

  const app = createPortalApp({
    basePath: dev ? '/' : basePath,
    distDir: dev ? undefined : distDir,
    mock: mock?.app,
    upstream,
    frameAncestors: env.FRAME_ANCESTORS,
    maxBodyBytes,
    sourceMaps: env.SOURCE_MAPS === '1',
    sources: others.mounted,
    configSources: others.config,
    configFile: path.join(root, 'public', 'config.json'),
    around: audit.around,
    portalApi: audit.api,
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
      const toServer =
        /^\/(api|portal-api|__mock|(vertesia|bilby)\/(api|__mock))([/?]|$)/.test(url) ||
        /^\/(healthz|config\.json)([?]|$)/.test(url);
      if (toServer) honoListener(req, res);
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
    const backendLine = (name: string, system: string, at: string, target: Upstream | undefined) =>
      target
        ? `${name}: proxying ${at} to ${target.url}${target.apiKey ? ` (with ${system}_API_KEY)` : ''}`
        : `${name}: mock with demo data at ${at}`;
    console.log(`\n  Questions Inbox ${dev ? '(dev, hot reload) ' : ''}is running at ${url}`);
    console.log(`  ${backendLine('Reflexio', 'REFLEXIO', '/api', upstream)}`);
    console.log(
      `  Audit trail: ${trail.where}; reviewer ${auditConfig.identity.header ? `from the ${auditConfig.identity.header} header` : 'named in the browser (no REVIEWER_HEADER)'}`,
    );
    for (const source of others.mounted) {
      const system = source.name.toUpperCase();
      console.log(
        `  ${backendLine(source.name, system, `/${source.prefix}/api`, source.upstream)}`,
      );
    }
    console.log('');
  });

  closeGracefullyOnSignals(server, {
    beforeClose: () => {
      mock?.close();
      others.close();
      stopRetention();
      void trail.db.close();
    },
  });
}

void main();
