import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { type Context, Hono } from 'hono';
import {
  createUpstreamProxy,
  MOCK_REQUEST_HEADERS,
  type ProxyLog,
  pickHeaders,
  type Upstream,
} from '../proxy/proxy';
import { hardenApiResponse, hardenSignInPage } from './api-response';
import { DEFAULT_MAX_BODY_BYTES, readBodyWithin } from './body-limit';
import { compress } from './compress';
import type { ForwardHook } from './forward-hook';
import {
  crossSiteWriteGuard,
  formContentTypeGuard,
  type Guard,
  hostGuard,
  isWrite,
  refusal,
  runGuards,
} from './guards';
import { mountHealth, type Readiness } from './health';
import { servePrecompressed } from './precompressed';
import { unsafePathReason } from './safe-path';

export interface PortalOptions {
  /** Public sub-path the portal is served under, with leading and trailing slash (default `/`). */
  basePath?: string;
  /** The built portal (`dist/`); omit to serve the API only (dev mode lets Vite serve the rest). */
  distDir?: string;
  /** Handles `/api/…` and `/__mock/…` (the mock backend's `app.fetch`). */
  mock?: { fetch: (request: Request, env?: unknown) => Response | Promise<Response> };
  upstream?: Upstream;
  /** Value of CSP `frame-ancestors` (default `'self'`). */
  frameAncestors?: string;
  /**
   * `host:port` values `/api` and `/__mock` answer for. With a real Reflexio behind it the proxy
   * spends the server's API key, and the mock holds the demo's data: neither may answer a page
   * that rebinds its own name to this machine. Omit to accept any Host (tests, the bench).
   */
  allowedHosts?: string[];
  /** Largest request body taken, in bytes (default 1 MB, like deploy/nginx). */
  maxBodyBytes?: number;
  /** Serve the build's `.map` files (they hold every source file); default off. */
  sourceMaps?: boolean;
  /** Where refusals and proxy failures are logged, one line each (default console.error). */
  log?: ProxyLog;
  /**
   * Further agent platforms served next to Reflexio, each under its own path segment:
   * `/<prefix>/api/…` goes to its mock or its real server, `/<prefix>/__mock/…` to its mock.
   */
  sources?: MountedSource[];
  /**
   * The `sources` list `config.json` gets when the file has none of its own (what this server
   * serves); without it config.json is served as it is.
   */
  configSources?: ConfigSource[];
  /** The config.json served (CONFIG_FILE; dev: `public/config.json`); else `distDir`'s. */
  configFile?: string;
  /** Every forward to a system passes through this (the audit trail, server/audit/sql.ts). */
  around?: ForwardHook;
  /**
   * A read (GET) of a system the server may answer from its own copy of the lists (the watcher's,
   * server/watch/copy.ts); null sends it to the system as before.
   */
  fromCopy?: (read: {
    sourceId: string;
    targetPath: string;
    search: string;
    request: Request;
  }) => Promise<Response | null>;
  /** `GET /metrics` (server/metrics/route.ts): Prometheus' text format, guarded by itself. */
  metrics?: (request: Request) => Promise<Response>;
  /** Told of each request that reached a system (the metrics): its status (0: none) and time. */
  onUpstream?: (sourceId: string, method: string, status: number, seconds: number) => void;
  /**
   * The first screen rendered on the server (server/render/first-screen.ts): index.html (the
   * `template`) in two pieces, `head` sent at once and `rest()` (the rows, or what the plain page
   * has there when there are none; asked for once `head` is on its way) once rendered; or null to
   * send the template as it is. Without it, the browser renders the page alone.
   */
  firstScreen?: (page: {
    request: Request;
    url: URL;
    baseUrl: URL;
    template: string;
    /** Answers a request as the portal would (its own app's fetch). */
    portal: (request: Request) => Promise<Response>;
  }) => Promise<{
    head: string;
    rest: () => Promise<string>;
    /** Hashes (`'sha256-…'`) of the inline scripts the page may hold: its `script-src` names them. */
    scriptHashes?: string[];
  } | null>;
  /** Answers `/portal-api/…`, the portal server's own API (the audit trail's read side). */
  portalApi?: (request: Request, innerPath: string) => Promise<Response>;
  /** What `GET /readyz` reports (server/http/health.ts); without it, ready as soon as it answers. */
  ready?: () => Readiness;
}

/** One further system behind the portal server (Vertesia, Bilby): a mock or a real server. */
export interface MountedSource {
  /** Path segment, e.g. `vertesia`: the portal reaches it at `vertesia/api/…`. */
  prefix: string;
  /** The system's name, for plain-words messages (`Vertesia`). */
  name: string;
  mock?: { fetch: (request: Request, env?: unknown) => Response | Promise<Response> };
  upstream?: Upstream;
}

/** An entry of config.json's `sources`, as the server writes it. */
export type ConfigSource = { id: string; kind: string; apiBaseUrl: string } & Record<
  string,
  string
>;

export function normalizeBasePath(value: string | undefined): string {
  const trimmed = (value ?? '/').trim();
  const withLeading = trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
  return withLeading.endsWith('/') ? withLeading : `${withLeading}/`;
}

/**
 * The pages' policy. `styleAttributes`: a page with its first screen rendered on the server holds
 * React's and Mantine's `style="…"` attributes in its HTML (the browser's own render sets the same
 * styles through the DOM, which the policy does not govern). Only attributes: no `<style>` element.
 * `scriptHashes`: the one inline script such a page holds (first-screen.js, server/render/
 * inline-script.ts), allowed by its hash; no other script that is not a file of the portal.
 */
export function contentSecurityPolicy(
  frameAncestors = "'self'",
  options: { styleAttributes?: boolean; scriptHashes?: readonly string[] } = {},
): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...(options.scriptHashes ?? [])].join(' '),
    "style-src 'self'",
    ...(options.styleAttributes ? ["style-src-attr 'unsafe-inline'"] : []),
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}

export function createPortalApp(options: PortalOptions): Hono {
  const basePath = normalizeBasePath(options.basePath);
  const app = new Hono();
  const csp = contentSecurityPolicy(options.frameAncestors);

  // Everything below works on paths relative to the base path.
  const stripBase = (pathname: string): string | null => {
    if (basePath === '/') return pathname;
    if (`${pathname}/` === basePath) return '/';
    return pathname.startsWith(basePath) ? `/${pathname.slice(basePath.length)}` : null;
  };

  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const log = options.log ?? ((line: string) => console.error(line));
  const forwardToUpstream = options.upstream ? createUpstreamProxy(options.upstream, log) : null;
  const mounted = (options.sources ?? []).map((source) => ({
    ...source,
    forward: source.upstream
      ? createUpstreamProxy({ name: source.name, ...source.upstream }, log)
      : null,
  }));

  // Every upstream (the mock, a real Reflexio, any added later) sits behind the same guards.
  const guards: Guard[] = [
    hostGuard(options),
    crossSiteWriteGuard(options),
    formContentTypeGuard(),
  ];
  // The mock's stand-in sign-in page posts a plain form to itself; nothing else may.
  const signInGuards: Guard[] = [hostGuard(options), crossSiteWriteGuard(options)];

  const refused = (c: Context, innerPath: string, response: Response) => {
    log(`[proxy] ${c.req.method} ${innerPath} → ${response.status} refused`);
    return response;
  };

  interface Target {
    mock: PortalOptions['mock'];
    forward: ReturnType<typeof createUpstreamProxy> | null;
    /** The path the target sees: `/api/…` or `/__mock/…` (the source's prefix taken off). */
    targetPath: string;
    /** config.json's id and kind of the system behind it. */
    source: { id: string; kind: string };
  }

  const forward = async (c: Context, innerPath: string, target: Target) => {
    const request = c.req.raw;
    const unsafe = unsafePathReason(new URL(request.url).pathname);
    if (unsafe) {
      return refused(
        c,
        innerPath,
        hardenApiResponse(
          refusal(400, `Path refused: ${unsafe}. The portal only asks for plain paths.`),
        ),
      );
    }
    const guarded = runGuards(
      !target.forward && target.targetPath === '/__mock/sign-in' ? signInGuards : guards,
      request,
    );
    if (guarded) return refused(c, innerPath, hardenApiResponse(guarded));
    const read = isWrite(request.method)
      ? await readBodyWithin(request, maxBodyBytes)
      : { ok: true as const, body: null };
    if (!read.ok) return refused(c, innerPath, hardenApiResponse(read.response));
    const send = (request: Request) => sendOn(c, innerPath, target, request, read.body);
    return options.around
      ? options.around(
          { request, body: read.body, source: target.source, targetPath: target.targetPath },
          send,
        )
      : send(request);
  };

  const sendOn = async (
    c: Context,
    innerPath: string,
    target: Target,
    request: Request,
    body: Uint8Array<ArrayBuffer> | null,
  ) => {
    const read = { body };
    if (options.fromCopy && !isWrite(request.method) && target.targetPath.startsWith('/api/')) {
      const copied = await options.fromCopy({
        sourceId: target.source.id,
        targetPath: target.targetPath,
        search: new URL(request.url).search.slice(1),
        request,
      });
      if (copied) return hardenApiResponse(copied);
    }
    const started = performance.now();
    const told = (status: number) =>
      options.onUpstream?.(
        target.source.id,
        request.method,
        status,
        (performance.now() - started) / 1000,
      );
    try {
      const answer = await reach(c, innerPath, target, request, read.body);
      if (target.targetPath.startsWith('/api/')) told(answer.status);
      return answer;
    } catch (error) {
      if (target.targetPath.startsWith('/api/')) told(0);
      throw error;
    }
  };

  const reach = async (
    c: Context,
    innerPath: string,
    target: Target,
    request: Request,
    body: Uint8Array<ArrayBuffer> | null,
  ) => {
    const read = { body };
    const incoming = (
      c.env as
        | { incoming?: { socket?: { remoteAddress?: string; encrypted?: boolean } } }
        | undefined
    )?.incoming;
    if (target.forward) {
      return target.forward({
        request,
        innerPath: target.targetPath,
        shownPath: innerPath,
        body: read.body,
        clientIp: incoming?.socket?.remoteAddress,
        clientProto: incoming?.socket?.encrypted ? 'https' : 'http',
      });
    }
    if (!target.mock) return hardenApiResponse(c.json({ detail: 'Not Found' }, 404));
    const url = new URL(request.url);
    url.pathname = target.targetPath;
    const headers = pickHeaders(request.headers, MOCK_REQUEST_HEADERS);
    if (read.body) headers.set('content-length', String(read.body.byteLength));
    else headers.delete('content-length');
    const answer = await target.mock.fetch(
      new Request(url, {
        method: request.method,
        headers,
        body: read.body,
        // As the proxy does: a write goes on when the browser has gone (server/proxy/proxy.ts).
        signal: isWrite(request.method) ? undefined : request.signal,
      }),
      c.env,
    );
    return target.targetPath === '/__mock/sign-in'
      ? hardenSignInPage(answer)
      : hardenApiResponse(answer);
  };

  // The sources this server serves, unless the operator's config.json names its own.
  const serveConfig = async (c: Context, next: () => Promise<void>) => {
    const file =
      options.configFile ??
      (options.distDir ? path.join(options.distDir, 'config.json') : undefined);
    const text = file ? await readFile(file, 'utf8').catch(() => null) : '{}';
    if (text === null) return next();
    const headers = { 'Cache-Control': 'no-store', 'Content-Type': 'application/json' };
    let config: unknown;
    try {
      config = JSON.parse(text);
    } catch {
      // Served as it is: the portal names what is wrong with it.
      return c.body(text, 200, headers);
    }
    return c.body(JSON.stringify(withSources(config, options.configSources ?? [])), 200, headers);
  };

  app.use('*', compress());
  mountHealth(app, basePath, options.ready);
  if (options.metrics) {
    const metrics = options.metrics;
    // Like the probes: at the root (Prometheus scrapes the pod) and under the base path (through
    // the SSO proxy). Who may read it is the handler's to say (METRICS_TOKEN, or the identity).
    for (const prefix of basePath === '/' ? ['/'] : ['/', basePath]) {
      app.get(`${prefix}metrics`, (c) => metrics(c.req.raw));
    }
  }

  app.use('*', async (c, next) => {
    await next();
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'same-origin');
  });

  app.all('*', async (c, next) => {
    const inner = stripBase(new URL(c.req.url).pathname);
    if (inner === null) {
      if (c.req.method === 'GET' && basePath !== '/' && new URL(c.req.url).pathname === '/') {
        return c.redirect(basePath, 302);
      }
      return c.text(`Not found: the portal is served under ${basePath}`, 404);
    }
    const under = (root: string, path: string) => path === root || path.startsWith(`${root}/`);
    const reflexio = {
      mock: options.mock,
      forward: forwardToUpstream,
      targetPath: inner,
      source: { id: 'reflexio', kind: 'reflexio' },
    };
    if (under('/api', inner)) return forward(c, inner, reflexio);
    if (under('/portal-api', inner) && options.portalApi) {
      const guarded = runGuards(guards, c.req.raw);
      return guarded ? refused(c, inner, guarded) : options.portalApi(c.req.raw, inner);
    }
    if (under('/__mock', inner)) {
      if (options.upstream)
        return c.json({ detail: 'The mock is off: this portal talks to a real Reflexio.' }, 404);
      return forward(c, inner, reflexio);
    }
    for (const source of mounted) {
      const rest = inner.slice(source.prefix.length + 1);
      if (!inner.startsWith(`/${source.prefix}/`)) continue;
      const target = {
        mock: source.mock,
        forward: source.forward,
        targetPath: rest,
        source: { id: source.prefix, kind: source.prefix },
      };
      if (under('/api', rest)) return forward(c, inner, target);
      if (under('/__mock', rest)) {
        if (source.upstream) {
          return c.json(
            { detail: `The mock is off: this portal talks to a real ${source.name}.` },
            404,
          );
        }
        return forward(c, inner, target);
      }
    }
    if (inner === '/config.json' && options.configSources && c.req.method === 'GET') {
      return serveConfig(c, next);
    }
    return next();
  });

  const distDir = options.distDir;
  if (!distDir) return app;

  // Re-read when the build changes under a running server (npm start rebuilds on source changes).
  let cached: { mtimeMs: number; html: string } | null = null;
  const renderIndex = async () => {
    const file = path.join(distDir, 'index.html');
    const { mtimeMs } = await stat(file);
    if (cached?.mtimeMs !== mtimeMs) {
      const html = await readFile(file, 'utf8');
      cached = { mtimeMs, html: html.replace('<base href="/" />', `<base href="${basePath}" />`) };
    }
    return cached.html;
  };

  const renderFirstScreen = options.firstScreen;
  const renderedCsp = (scriptHashes: readonly string[] = []) =>
    contentSecurityPolicy(options.frameAncestors, { styleAttributes: true, scriptHashes });
  const sendIndex = async (c: Context) => {
    const template = await renderIndex();
    const url = new URL(c.req.url);
    const page =
      renderFirstScreen && c.req.method === 'GET'
        ? await renderFirstScreen({
            request: c.req.raw,
            url,
            baseUrl: new URL(basePath, url),
            template,
            portal: async (request) => app.fetch(request),
          })
        : null;
    const headers = {
      'Cache-Control': 'no-store',
      // No cache keeps it (no-store): the page holds the reviewer's own lists.
      'Content-Security-Policy': page ? renderedCsp(page.scriptHashes) : csp,
    };
    if (!page) return c.html(template, 200, headers);
    // <head> at once: the browser fetches the app's stylesheet and code while the server renders.
    const encoder = new TextEncoder();
    let headSent = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (!headSent) {
          headSent = true;
          controller.enqueue(encoder.encode(page.head));
          return;
        }
        controller.enqueue(encoder.encode(await page.rest()));
        controller.close();
      },
      // The browser went away: the render still ends (and frees its place).
      cancel() {
        void page.rest();
      },
    });
    return c.body(body, 200, {
      ...headers,
      'Content-Type': 'text/html; charset=UTF-8',
      // Sent as it comes: without it, the Node adapter waits a turn for more before the headers.
      'Transfer-Encoding': 'chunked',
    });
  };

  app.get('*', async (c, next) => {
    const inner = stripBase(new URL(c.req.url).pathname);
    return inner === '/' || inner === '/index.html' ? sendIndex(c) : next();
  });

  const notFound = (c: Context) => c.text('Not found', 404, { 'Cache-Control': 'no-store' });

  // Source maps hold every source file: served only when asked for (SOURCE_MAPS=1).
  if (!options.sourceMaps) {
    app.get('*', async (c, next) =>
      decodesToSourceMap(new URL(c.req.url).pathname) ? notFound(c) : next(),
    );
  }

  // Hashed assets never change; everything else (config.json, the favicon) is read fresh.
  app.get('*', async (c, next) => {
    await next();
    if (c.res.status !== 200 || c.res.headers.get('content-type')?.startsWith('text/html')) return;
    const inner = stripBase(new URL(c.req.url).pathname) ?? '';
    c.header(
      'Cache-Control',
      inner.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-store',
    );
  });

  app.get('*', servePrecompressed({ root: distDir, toFilePath: stripBase }));
  app.get(
    '*',
    serveStatic({
      root: path.relative(process.cwd(), distDir) || '.',
      rewriteRequestPath: (requestPath) => stripBase(requestPath) ?? requestPath,
    }),
  );

  // Anything else is a route of the single-page app: index.html with the base path filled in.
  app.get('*', async (c) => {
    const inner = stripBase(new URL(c.req.url).pathname) ?? '/';
    // A missing file of the build is a 404: a script answered with HTML only hides the problem.
    if (inner === '/assets' || inner.startsWith('/assets/')) return notFound(c);
    if (/\.[a-z0-9]+$/i.test(inner) && !inner.startsWith('/questions')) return notFound(c);
    return sendIndex(c);
  });

  return app;
}

/**
 * config.json with the server's `sources` filled in, unless it has its own. Its `apiBaseUrl`, if
 * any, becomes the Reflexio source's address.
 */
export function withSources(config: unknown, sources: ConfigSource[]): unknown {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) return config;
  const record = config as Record<string, unknown>;
  if ('sources' in record) return config;
  const { apiBaseUrl, ...rest } = record;
  return {
    ...rest,
    sources: sources.map((source) =>
      source.kind === 'reflexio' && typeof apiBaseUrl === 'string'
        ? { ...source, apiBaseUrl }
        : source,
    ),
  };
}

/** Whether a request path names a `.map` file, however it is percent-encoded (`.%6dap`, `%2emap`). */
export function decodesToSourceMap(pathname: string): boolean {
  let current = pathname;
  for (let round = 0; round < 4; round++) {
    if (/\.map\/*$/i.test(current)) return true;
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      // Not a name any file has: let the static server answer its 404.
      return /\.map/i.test(current);
    }
    if (decoded === current) return false;
    current = decoded;
  }
  return true;
}
