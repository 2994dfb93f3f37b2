import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { createMockBackend, type MockBackend } from '../mock/app';
import { createBilbyMock } from '../mock/bilby/app';
import { BILBY_ORGANIZATION_ID } from '../mock/bilby/seed';
import { createVertesiaMock } from '../mock/vertesia/app';
import { createAudit, scheduleRetention } from './audit/sql';
import { openTrail, TrailOpenError } from './db/open';
import { createPortalServer } from './http/http-server';
import { type ConfigSource, createPortalApp, type MountedSource } from './http/portal';
import { withRequestLog } from './http/request-log';
import { closeGracefullyOnSignals } from './http/shutdown';
import { identityHeaders } from './identity/identity';
import { createInsightsApi } from './insights/core';
import { sqlInsights } from './insights/queries';
import { createMetrics, type Metrics, outcomeOf } from './metrics/metrics';
import { metricsRoute } from './metrics/route';
import { loadNotifyConfig, offerDevices } from './notify/config';
import { deliveryCounts } from './notify/outbox';
import { createNotifications } from './notify/service';
import type { Upstream } from './proxy/proxy';
import { configuredSystems, servedSystems } from './proxy/systems';
import { createFirstScreen } from './render/first-screen';
import { readSettings } from './settings/settings';
import { createSnippets } from './snippets/sql';
import { createTeam, teamBus, teamReadiness } from './team/sql';
import type { Team } from './team/types';
import { pruneClosedQuestions, waitingFigures } from './watch/store';
import { createWatching } from './watch/watching';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dev = process.argv.includes('--dev');
const env = process.env;
// The compiled server (`npm run serve`, dist-server/start.js) never builds: it runs without Vite.
const production = process.argv.includes('--production') || env.NODE_ENV === 'production';

// The config.json this server serves (CONFIG_FILE, else the build's): the team's claim settings
// may be there (readSettings). Before a first build only public/ holds it.
const configFile = env.CONFIG_FILE ? path.resolve(env.CONFIG_FILE) : undefined;
function servedConfig(): unknown {
  const file =
    configFile ??
    (production
      ? path.join(root, 'dist', 'config.json')
      : path.join(root, 'public', 'config.json'));
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // Missing or not JSON: the portal itself says what is wrong with it.
    return null;
  }
}

const served = servedConfig();
const checked = readSettings(env, served);
if (!checked.ok) {
  for (const problem of checked.problems) console.error(`Cannot start: ${problem}`);
  process.exit(1);
}
const settings = checked.settings;
// Notifications' receivers and routes (server/notify/): a mistake in the file stops the start.
const notifyConfig = loadNotifyConfig(settings.notify);
if (!notifyConfig.ok) {
  for (const problem of notifyConfig.problems) console.error(`Cannot start: ${problem}`);
  process.exit(1);
}
const notifyRoutes = offerDevices(notifyConfig.config, settings.notify);
const { port, host, basePath, maxBodyBytes } = settings;
const distDir = path.join(root, 'dist');
const auditConfig = settings.audit;

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
  const builtAt = Math.min(
    newestMtime(path.join(distDir, 'index.html')),
    newestMtime(path.join(root, 'dist-ssr', 'entry-server.js')),
  );
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
  // The server's build of the first screen (server/render/first-screen.ts).
  await build({ root, logLevel: 'warn', build: { ssr: 'src/app/entry-server.tsx' } });
}

function mockFromEnv(): MockBackend {
  const { mock } = settings;
  return createMockBackend({
    apiKey: mock.apiKey,
    controlKey: mock.apiKey,
    maxTenants: mock.maxTenants,
    maxBodyBytes,
    seed: mock.seed,
    simulatorIntervalMs: mock.simulatorIntervalMs,
    latencyMs: mock.latencyMs,
  });
}

interface OtherSystems {
  mounted: MountedSource[];
  config: ConfigSource[];
  close(): void;
}

/** Vertesia and Bilby: each its real server (`VERTESIA_URL`, `BILBY_URL`) or its mock. */
function otherSystemsFromEnv(): OtherSystems {
  const { mock } = settings;
  const common = {
    apiKey: mock.apiKey,
    controlKey: mock.apiKey,
    maxTenants: mock.maxTenants,
    seed: mock.seed,
    latencyMs: mock.latencyMs,
    // Each asks at a third of the Reflexio rate, so the demo list does not grow three times as fast.
    simulatorIntervalMs: mock.simulatorIntervalMs * 3,
  };
  const closers: (() => void)[] = [];
  const vertesiaUpstream = settings.vertesia;
  const bilbyUpstream = settings.bilby;
  const vertesiaMock = vertesiaUpstream ? undefined : createVertesiaMock(common);
  const bilbyMock = bilbyUpstream ? undefined : createBilbyMock(common);
  if (vertesiaMock) closers.push(vertesiaMock.close);
  if (bilbyMock) closers.push(bilbyMock.close);
  const organizationId = bilbyUpstream ? settings.bilbyOrganizationId : BILBY_ORGANIZATION_ID;
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
  const upstream = settings.reflexio;
  const mock = upstream ? undefined : mockFromEnv();
  const others = otherSystemsFromEnv();
  if (production && !existsSync(path.join(distDir, 'index.html'))) {
    console.error(`No built portal in ${distDir}: run \`npm run build\` first.`);
    process.exit(1);
  }
  if (!dev && !production) await buildIfNeeded();
  const trail = await openTrail(auditConfig).catch((error: unknown): never => {
    console.error(
      `Cannot start: ${error instanceof TrailOpenError ? error.message : String(error)}`,
    );
    process.exit(1);
  });
  // The watcher: one reader of each system for the whole team (server/watch/). Its changes go to
  // every browser on the team's stream, which is made next (hence `send` looks the team up).
  let streams: Team | null = null;
  const metricsHooks: { upstream?: Metrics['upstream'] } = {};
  const watching = createWatching({
    db: trail.db,
    databaseUrl: auditConfig.databaseUrl,
    systems: [
      {
        id: 'reflexio',
        kind: 'reflexio',
        name: 'Reflexio',
        mock: mock?.app,
        upstream,
        mockApiKey: settings.mock.apiKey,
      },
      ...others.mounted.map((source) => ({
        id: source.prefix,
        kind: source.prefix as 'vertesia' | 'bilby',
        name: source.name,
        mock: source.mock,
        upstream: source.upstream,
        mockApiKey: settings.mock.apiKey,
        apiVersion: others.config.find((entry) => entry.id === source.prefix)?.apiVersion,
        organizationId: others.config.find((entry) => entry.id === source.prefix)?.organizationId,
      })),
    ],
    intervalMs: settings.watch.intervalMs,
    send: (data) => streams?.change(data),
    onClosed: (sourceId, questionIds) => void streams?.closed(sourceId, questionIds),
    onRequest: (system, status, seconds) =>
      metricsHooks.upstream?.(system, 'GET', outcomeOf(status), seconds),
  });
  // Read once: a change to config.json's sources takes a restart to reach claims, presence and
  // snippets.
  const systems = configuredSystems(served, others.config);
  const team = await createTeam({
    db: trail.db,
    watch: () => watching.state(),
    readsCopy: (request) => watching.readsCopy(request),
    systems,
    identity: auditConfig.identity,
    config: settings.team,
    bus: teamBus(trail.db),
  });
  streams = team;
  const audit = createAudit({
    db: trail.db,
    identity: auditConfig.identity,
    answers: auditConfig.answers,
    hashKey: auditConfig.hashKey,
    answerMaxBytes: auditConfig.answerMaxBytes,
    writesPerMinute: auditConfig.writesPerMinute,
    onAccepted: async (sourceId, questionIds, reviewer) => {
      await watching.afterWrite(sourceId, questionIds);
      await team.answered(sourceId, questionIds, reviewer);
    },
  });
  // The team's saved answers (server/snippets/): who changed each goes to the same trail.
  const snippets = createSnippets({
    db: trail.db,
    identity: auditConfig.identity,
    systems,
    answers: auditConfig.answers,
    answerMaxBytes: auditConfig.answerMaxBytes,
    hashKey: auditConfig.hashKey,
  });
  const stopRetention = scheduleRetention(trail.db, auditConfig.retentionDays, undefined, [
    { what: 'closed questions', prune: (days) => pruneClosedQuestions(trail.db, days) },
  ]);
  const insights = createInsightsApi({
    store: sqlInsights(trail.db),
    identity: auditConfig.identity,
    perReviewer: settings.insights.perReviewer,
  });

  const metrics = createMetrics({
    waiting: () => waitingFigures(trail.db),
    watch: () => ({
      watching: watching.watching(),
      systems: watching.systems().map((system) => ({
        sourceId: system.sourceId,
        lagSeconds: system.readAt === null ? null : (Date.now() - system.readAt) / 1000,
        errors: system.errors,
        requests: system.requests,
      })),
    }),
    openStreams: () => team.streams(),
    notifyMessages: () => deliveryCounts(trail.db),
  });
  metricsHooks.upstream = metrics.upstream;

  // Notifications (server/notify/): the replica that watches routes; any replica sends.
  const notifications = createNotifications({
    db: trail.db,
    config: notifyRoutes,
    smtpUrl: settings.notify.smtpUrl,
    publicUrl:
      settings.notify.publicUrl ??
      `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${port}${dev ? '/' : basePath}`,
    identity: auditConfig.identity,
    leader: () => watching.watching(),
    systemNames: new Map([
      ['reflexio', 'Reflexio'],
      ...others.mounted.map((source): [string, string] => [source.prefix, source.name]),
    ]),
    onDelivery: (receiver, outcome) => metrics.notifyDelivery(receiver, outcome),
  });
  const allowedHosts = [
    `localhost:${port}`,
    `127.0.0.1:${port}`,
    `[::1]:${port}`,
    `${host}:${port}`,
    ...settings.allowedHosts,
  ];

  const app = createPortalApp({
    basePath: dev ? '/' : basePath,
    distDir: dev ? undefined : distDir,
    mock: mock?.app,
    upstream,
    frameAncestors: settings.frameAncestors,
    maxBodyBytes,
    sourceMaps: settings.sourceMaps,
    sources: others.mounted,
    configSources: others.config,
    configFile: configFile ?? (dev ? path.join(root, 'public', 'config.json') : undefined),
    around: audit.around,
    // The first screen comes with the page (server/render/): from dist-ssr/, built with dist/.
    firstScreen: dev
      ? undefined
      : createFirstScreen({
          ssrDir: path.join(root, 'dist-ssr'),
          assetsDir: path.join(distDir, 'assets'),
          // On for every page unless FIRST_SCREEN=off; then only for a browser that asks (cookie
          // qi-first-screen=on): see docs/server-rendering.md, "Turning it off".
          mode: settings.firstScreen ? 'always' : 'when-asked',
          log: console.error,
        }),
    portalApi: async (request, innerPath) =>
      (await insights(request, innerPath)) ??
      (await notifications.api(request, innerPath)) ??
      (await team.api(request, innerPath)) ??
      (await snippets.api(request, innerPath)) ??
      audit.api(request, innerPath),
    ready: () => teamReadiness(team),
    fromCopy: (read) => watching.fromCopy(read),
    onUpstream: (sourceId, method, status, seconds) =>
      metrics.upstream(sourceId, method, outcomeOf(status), seconds),
    metrics: metricsRoute({
      metrics,
      token: settings.metricsToken,
      identity: auditConfig.identity,
      allowedHosts,
    }),
    allowedHosts,
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
        /^\/(healthz|readyz|metrics|config\.json)([?]|$)/.test(url);
      if (toServer) honoListener(req, res);
      else vite.middlewares(req, res);
    };
  }

  // The request log wraps the server's every way in, refusals included (Expect: 100-continue).
  const server = createPortalServer(handler, {
    maxBodyBytes,
    singleHeaders: identityHeaders(auditConfig.identity),
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
  await watching.start();
  notifications.start();
  server.listen(port, host, () => {
    const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
    const url = `http://${shownHost}:${port}${dev ? '/' : basePath}`;
    // Where the browser reaches each system: under the base path, as the portal's own pages do.
    const under = (at: string) => `${(dev ? '/' : basePath).replace(/\/$/, '')}${at}`;
    const mockWith =
      settings.mock.seed === 'demo' ? 'demo data' : 'no questions yet (MOCK_SEED=empty)';
    const backendLine = (name: string, system: string, at: string, target: Upstream | undefined) =>
      target
        ? `${name}: proxying ${under(at)} to ${target.url}${target.apiKey ? ` (with ${system}_API_KEY)` : ''}`
        : `${name}: mock with ${mockWith} at ${under(at)}`;
    console.log(`\n  Questions Inbox ${dev ? '(dev, hot reload) ' : ''}is running at ${url}`);
    console.log(`  ${backendLine('Reflexio', 'REFLEXIO', '/api', upstream)}`);
    console.log(
      `  Audit trail: ${trail.where}; reviewer ${auditConfig.identity.header ? `from the ${auditConfig.identity.header} header` : 'named in the browser (no REVIEWER_HEADER)'}`,
    );
    if (production && !auditConfig.identity.header) {
      console.warn(
        '  Warning: REVIEWER_HEADER is not set, so reviewers name themselves in the browser: anyone who reaches the portal can act under any name, and the trail marks such entries as self-named. Behind an SSO proxy, set REVIEWER_HEADER (docs/deploy.md).',
      );
    }
    for (const source of others.mounted) {
      const system = source.name.toUpperCase();
      console.log(
        `  ${backendLine(source.name, system, `/${source.prefix}/api`, source.upstream)}`,
      );
    }
    const watched = watching.sources;
    console.log(
      watched.length > 0
        ? `  Watching ${watched.join(', ')} every ${settings.watch.intervalMs / 1000} s: open inboxes get each change live`
        : '  Watching nothing: each browser reads the systems itself (the server holds no key)',
    );
    console.log(`  ${notifications.summary()}`);
    console.log('');
  });

  closeGracefullyOnSignals(server, {
    beforeClose: () => {
      mock?.close();
      others.close();
      stopRetention();
      void watching.close();
      void notifications.close();
      void team.close();
    },
    // After the answers in flight have recorded their outcomes, never before.
    afterClose: () => trail.db.close(),
  });
}

void main();
