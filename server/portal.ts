import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { type Context, Hono } from 'hono';
import { proxy } from 'hono/proxy';
import { compress } from './compress';
import { mountHealth } from './health';
import { servePrecompressed } from './precompressed';

export interface Upstream {
  /** Root of a real Reflexio server, e.g. `https://reflexio.internal`; `/api/...` is appended. */
  url: string;
  /** Added as `Authorization: Bearer …` server-side, so the key never reaches the browser. */
  apiKey?: string;
}

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
   * `host:port` values the API proxy answers for. With a real Reflexio behind it the proxy spends
   * the server's API key, so it must not answer a page that rebinds its own name to this machine.
   */
  allowedHosts?: string[];
}

export function normalizeBasePath(value: string | undefined): string {
  const trimmed = (value ?? '/').trim();
  const withLeading = trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
  return withLeading.endsWith('/') ? withLeading : `${withLeading}/`;
}

export function contentSecurityPolicy(frameAncestors = "'self'"): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'host', 'cookie'];

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

  const forwardToMock = (c: Context, innerPath: string) => {
    if (!options.mock) return c.json({ detail: 'Not Found' }, 404);
    const url = new URL(c.req.url);
    url.pathname = innerPath;
    return options.mock.fetch(new Request(url, c.req.raw), c.env);
  };

  const forwardToUpstream = async (c: Context, upstream: Upstream, innerPath: string) => {
    const url = new URL(c.req.url);
    const target = new URL(innerPath + url.search, upstream.url);
    const headers: Record<string, string | undefined> = {};
    c.req.raw.headers.forEach((value, key) => {
      if (!HOP_BY_HOP.includes(key)) headers[key] = value;
    });
    if (upstream.apiKey) headers.authorization = `Bearer ${upstream.apiKey}`;
    try {
      return await proxy(target, { raw: c.req.raw, headers });
    } catch {
      return c.json(
        { detail: 'The Reflexio server could not be reached from the portal server.' },
        502,
      );
    }
  };

  const refuseForeignRequest = (c: Context): Response | null => {
    // Browsers say where a request comes from; only the portal's own pages may change questions.
    const site = c.req.header('sec-fetch-site');
    if (c.req.method !== 'GET' && site && site !== 'same-origin' && site !== 'none') {
      return c.json({ detail: 'Cross-site request refused' }, 403);
    }
    if (
      options.upstream &&
      options.allowedHosts &&
      !options.allowedHosts.includes(c.req.header('host') ?? '')
    ) {
      return c.json(
        { detail: 'Host not allowed: set ALLOWED_HOSTS to serve the portal under this name' },
        403,
      );
    }
    return null;
  };

  app.use('*', compress());
  mountHealth(app, basePath);

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
      return c.text('Not found: the portal is served under ' + basePath, 404);
    }
    if (inner === '/api' || inner.startsWith('/api/')) {
      const refused = refuseForeignRequest(c);
      if (refused) return refused;
      return options.upstream
        ? forwardToUpstream(c, options.upstream, inner)
        : forwardToMock(c, inner);
    }
    if (inner.startsWith('/__mock')) {
      if (options.upstream)
        return c.json({ detail: 'The mock is off: this portal talks to a real Reflexio.' }, 404);
      return forwardToMock(c, inner);
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

  const sendIndex = async (c: Context) =>
    c.html(await renderIndex(), 200, {
      'Cache-Control': 'no-store',
      'Content-Security-Policy': csp,
    });

  app.get('*', async (c, next) => {
    const inner = stripBase(new URL(c.req.url).pathname);
    return inner === '/' || inner === '/index.html' ? sendIndex(c) : next();
  });

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
    if (/\.[a-z0-9]+$/i.test(inner) && !inner.startsWith('/questions')) {
      return c.text('Not found', 404, { 'Cache-Control': 'no-store' });
    }
    return sendIndex(c);
  });

  return app;
}
