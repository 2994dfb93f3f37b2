// Starts the production setup for one Playwright worker: the built portal served by Debian's
// nginx with deploy/nginx/*.conf (rendered by deploy/nginx/render.ts), a stand-in SSO behind
// nginx's auth_request, and the mock Reflexio requiring an API key that only nginx holds.
//
//   browser ── nginx :A  <prefix>…            questions-inbox.conf (SSO gate, prefix kept)
//                 ├── <prefix>oauth2/…   ──▶  SSO stand-in
//                 └── <prefix>api/…      ──▶  mock Reflexio (+ Authorization: Bearer <key>)
//   browser ── nginx :O  <stripped>…          an outer gateway stand-in that strips the prefix
//                 └──▶ nginx :I  /…            questions-inbox-inner.conf ──▶ mock Reflexio
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { renderNginxConfig } from '../../deploy/nginx/render';
import { createMockBackend } from '../../mock/app';
import { type SsoStandIn, startSsoStandIn } from './sso-stand-in';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Public prefix of the portal when nginx serves the files itself. */
export const PREFIX = '/agents/inbox/';
/** Public prefix of the outer gateway that strips it before the inner nginx server. */
export const STRIPPED_PREFIX = '/team/inbox/';
/** frame-ancestors the tests deploy with. */
export const FRAME_ANCESTORS = "'self'";
/** config.json's poll interval: the shortest the portal accepts, so an expiry shows quickly. */
export const POLL_INTERVAL_MS = 2_000;

export interface ProxyHarness {
  /** nginx serving the portal under PREFIX, e.g. http://127.0.0.1:41234 */
  origin: string;
  /** The outer gateway stand-in, serving the portal under STRIPPED_PREFIX. */
  strippedOrigin: string;
  /** The inner nginx server the gateway forwards to (reachable directly only in tests). */
  innerOrigin: string;
  /** The mock Reflexio, directly (its /__mock control surface is never proxied). */
  mockOrigin: string;
  sso: SsoStandIn;
  /** Asset paths of the build (relative to the prefix), from index.html. */
  assets: string[];
  /** nginx's error log so far, for failure messages. */
  errorLog(): string;
  stop(): Promise<void>;
}

/** NGINX_PATH when set (only that one), else Debian's or the one on PATH. */
export function findNginx(): string | null {
  const wanted = process.env.NGINX_PATH;
  if (wanted) return existsSync(wanted) ? wanted : null;
  for (const candidate of ['/usr/sbin/nginx', '/usr/local/sbin/nginx']) {
    if (existsSync(candidate)) return candidate;
  }
  const which = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  const found = which.stdout.trim();
  return which.status === 0 && found ? found : null;
}

export const NGINX_MISSING = [
  'nginx is not installed, so the proxy end-to-end tests cannot run.',
  '  Debian/Ubuntu: sudo apt-get install -y nginx',
  '  Or point NGINX_PATH at an nginx binary (with the auth_request and sub_filter modules).',
].join('\n');

async function freePort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The build's files referenced from index.html (`./assets/…`). */
function assetsOf(indexHtml: string): string[] {
  return [...indexHtml.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((m) => m[1] as string);
}

/** Copies dist/ (building it into the copy when there is none) and adds the test's config.json. */
function prepareSite(workDir: string): { siteDir: string; assets: string[] } {
  const siteDir = path.join(workDir, 'site');
  // PROXY_E2E_DIST tests another build (a release artefact, say) instead of this checkout's.
  const built = path.resolve(process.env.PROXY_E2E_DIST ?? path.join(repoRoot, 'dist'));
  if (existsSync(path.join(built, 'index.html'))) {
    cpSync(built, siteDir, { recursive: true });
  } else {
    const result = spawnSync(
      'npx',
      ['vite', 'build', '--outDir', siteDir, '--emptyOutDir', '--logLevel', 'warn'],
      { cwd: repoRoot, encoding: 'utf8' },
    );
    if (result.status !== 0) {
      throw new Error(`vite build failed:\n${result.stdout}\n${result.stderr}`);
    }
  }
  const indexHtml = readFileSync(path.join(siteDir, 'index.html'), 'utf8');
  if (!indexHtml.includes('<base href="/" />')) {
    throw new Error('dist/index.html has no <base href="/" /> for the proxy to rewrite');
  }
  const assets = assetsOf(indexHtml);
  const missing = assets.filter((asset) => !existsSync(path.join(siteDir, asset)));
  if (assets.length === 0 || missing.length > 0) {
    throw new Error(
      `dist/ looks incomplete (a build still running?): missing ${missing.join(', ')}`,
    );
  }
  // Relative to <base href>: the SSO's endpoints under the portal's prefix (oauth2-proxy's
  // --proxy-prefix), the API at <prefix>api/.
  const config = {
    apiBaseUrl: 'api',
    pollIntervalMs: POLL_INTERVAL_MS,
    auth: { mode: 'proxy', signInUrl: 'oauth2/sign_in', userInfoUrl: 'oauth2/userinfo' },
  };
  writeFileSync(path.join(siteDir, 'config.json'), `${JSON.stringify(config, null, 2)}\n`);
  // Another page on the same origin that embeds the portal (allowed by frame-ancestors 'self').
  writeFileSync(
    path.join(siteDir, 'embed-host.html'),
    [
      '<!doctype html>',
      '<html lang="en">',
      '  <head><meta charset="utf-8"><title>Team portal</title></head>',
      '  <body>',
      '    <h1>Team portal</h1>',
      '    <iframe src="questions?embed=1" title="Questions Inbox" width="1100" height="720"></iframe>',
      '  </body>',
      '</html>',
      '',
    ].join('\n'),
  );
  return { siteDir, assets };
}

function mainConfig(options: {
  workDir: string;
  includes: string[];
  outerPort: number;
  innerPort: number;
}): string {
  const { workDir } = options;
  const temp = (name: string) => path.join(workDir, 'temp', name);
  const mimeTypes = existsSync('/etc/nginx/mime.types')
    ? 'include /etc/nginx/mime.types;'
    : 'types { text/html html; text/css css; application/javascript js; application/json json; image/svg+xml svg; }';
  return `# Written by e2e/proxy/harness.ts for one test run.
worker_processes 1;
events { worker_connections 256; }
http {
    ${mimeTypes}
    default_type application/octet-stream;
    access_log ${path.join(workDir, 'access.log')};
    # Writable temp paths (the compiled-in ones under /var/lib/nginx need root).
    client_body_temp_path ${temp('client_body')};
    proxy_temp_path ${temp('proxy')};
    fastcgi_temp_path ${temp('fastcgi')};
    uwsgi_temp_path ${temp('uwsgi')};
    scgi_temp_path ${temp('scgi')};

${options.includes.map((file) => `    include ${file};`).join('\n')}

    # Stand-in for a company gateway in front of questions-inbox-inner.conf: strips the public
    # prefix and says what it was, without the trailing slash (as Traefik does).
    server {
        listen 127.0.0.1:${options.outerPort};
        absolute_redirect off;
        location = ${STRIPPED_PREFIX.replace(/\/$/, '')} {
            return 301 ${STRIPPED_PREFIX};
        }
        location ${STRIPPED_PREFIX} {
            proxy_pass http://127.0.0.1:${options.innerPort}/;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-Prefix ${STRIPPED_PREFIX.replace(/\/$/, '')};
        }
    }
}
`;
}

async function waitForNginx(
  nginx: ChildProcess,
  url: string,
  failure: () => string,
): Promise<void> {
  let exited: string | null = null;
  nginx.once('exit', (code, signal) => {
    exited = `exited with ${signal ?? code}`;
  });
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`nginx ${exited}\n${failure()}`);
    try {
      await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(1_000) });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`nginx did not answer at ${url}\n${failure()}`);
}

export async function startProxyHarness(nginxPath: string): Promise<ProxyHarness> {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'qi-proxy-e2e-'));
  const cleanups: Array<() => Promise<void> | void> = [
    () => rmSync(workDir, { recursive: true, force: true }),
  ];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (error) {
        console.warn('[proxy harness] cleanup failed:', error);
      }
    }
  };

  try {
    // Run as root, nginx's workers drop to an unprivileged user: it must read what we write.
    chmodSync(workDir, 0o755);
    mkdirSync(path.join(workDir, 'temp'));
    const { siteDir, assets } = prepareSite(workDir);

    const apiKey = `rfx_test_${randomUUID()}`;
    const mock = createMockBackend({
      apiKey,
      simulatorIntervalMs: 0,
      sweepIntervalMs: 1_000,
      checkUserAgent: true,
    });
    const mockServer = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const server = serve({ fetch: mock.app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
        resolve(server),
      );
    });
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          mock.close();
          if ('closeAllConnections' in mockServer) mockServer.closeAllConnections();
          mockServer.close(() => resolve());
        }),
    );
    const mockAddress = mockServer.address();
    if (mockAddress === null || typeof mockAddress === 'string') throw new Error('mock address');
    const mockOrigin = `http://127.0.0.1:${mockAddress.port}`;

    const sso = await startSsoStandIn();
    cleanups.push(() => sso.close());

    const [port, innerPort, outerPort] = [await freePort(), await freePort(), await freePort()];
    const dist = `${siteDir}/`;
    const render = (file: string, values: Record<string, string>) => {
      const target = path.join(workDir, file);
      const template = readFileSync(path.join(repoRoot, 'deploy/nginx', file), 'utf8');
      writeFileSync(target, renderNginxConfig(template, values));
      return target;
    };
    const includes = [
      render('questions-inbox.conf', {
        SERVER_NAME: '127.0.0.1 localhost',
        LISTEN: `127.0.0.1:${port}`,
        PREFIX,
        DIST: dist,
        API_UPSTREAM: mockOrigin,
        API_TOKEN: apiKey,
        AUTH_UPSTREAM: sso.origin,
        FRAME_ANCESTORS,
      }),
      render('questions-inbox-inner.conf', {
        INNER_LISTEN: `127.0.0.1:${innerPort}`,
        DIST: dist,
        API_UPSTREAM: mockOrigin,
        API_TOKEN: apiKey,
        FRAME_ANCESTORS,
      }),
    ];
    const confPath = path.join(workDir, 'nginx.conf');
    writeFileSync(confPath, mainConfig({ workDir, includes, outerPort, innerPort }));

    const errorLogPath = path.join(workDir, 'error.log');
    const errorLog = () => (existsSync(errorLogPath) ? readFileSync(errorLogPath, 'utf8') : '');
    let stderr = '';
    const nginx = spawn(
      nginxPath,
      [
        '-p',
        workDir,
        '-c',
        confPath,
        '-g',
        `daemon off; pid ${path.join(workDir, 'nginx.pid')}; error_log ${errorLogPath} warn;`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    nginx.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // Should the worker die without running its fixtures' teardown, nginx goes with it.
    const killOnExit = () => nginx.kill('SIGKILL');
    process.once('exit', killOnExit);
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          process.off('exit', killOnExit);
          if (nginx.exitCode !== null || nginx.signalCode !== null) return resolve();
          const timer = setTimeout(() => nginx.kill('SIGKILL'), 5_000);
          nginx.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          nginx.kill('SIGTERM');
        }),
    );
    const origin = `http://127.0.0.1:${port}`;
    const failure = () => `stderr:\n${stderr}\nerror.log:\n${errorLog()}`;
    await waitForNginx(nginx, `${origin}/`, failure);
    await waitForNginx(nginx, `http://127.0.0.1:${outerPort}/`, failure);

    return {
      origin,
      strippedOrigin: `http://127.0.0.1:${outerPort}`,
      innerOrigin: `http://127.0.0.1:${innerPort}`,
      mockOrigin,
      sso,
      assets,
      errorLog,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
