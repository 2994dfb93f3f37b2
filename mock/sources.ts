import { type BilbyMock, type BilbyMockOptions, createBilbyMock } from './bilby/app';
import { createVertesiaMock, type VertesiaMock, type VertesiaMockOptions } from './vertesia/app';

/**
 * The Vertesia and Bilby mocks on one port next to the portal: `/vertesia/…` and `/bilby/…` (under
 * the portal's base path) go to each mock with that prefix taken off, so the portal's sources use
 * `vertesia/api/v1` and `bilby/api/v1` as their API roots and each mock's control surface is at
 * `/vertesia/__mock` and `/bilby/__mock`.
 */
export interface SourceMocks {
  vertesia: VertesiaMock;
  bilby: BilbyMock;
  /** The mock's answer for a request under `/vertesia/` or `/bilby/`; null for anything else. */
  route(request: Request, env?: unknown): Response | Promise<Response> | null;
  /** Whether a request path (with the base path) belongs to a mock; for the dev server's split. */
  handles(pathname: string): boolean;
  close(): void;
}

export interface SourceMocksOptions {
  basePath?: string;
  vertesia?: VertesiaMockOptions;
  bilby?: BilbyMockOptions;
}

const PREFIXES = ['vertesia', 'bilby'] as const;

export function createSourceMocks(options: SourceMocksOptions = {}): SourceMocks {
  const basePath = options.basePath ?? '/';
  const vertesia = createVertesiaMock(options.vertesia);
  const bilby = createBilbyMock(options.bilby);
  const apps = { vertesia: vertesia.app, bilby: bilby.app };

  function match(pathname: string): { prefix: (typeof PREFIXES)[number]; inner: string } | null {
    if (!pathname.startsWith(basePath)) return null;
    const rest = pathname.slice(basePath.length);
    for (const prefix of PREFIXES) {
      if (rest.startsWith(`${prefix}/`)) return { prefix, inner: rest.slice(prefix.length) };
    }
    return null;
  }

  return {
    vertesia,
    bilby,
    handles: (pathname) => match(pathname.split('?')[0] ?? '') !== null,
    route(request, env) {
      const url = new URL(request.url);
      const found = match(url.pathname);
      if (!found) return null;
      // As for the portal's own API: only its own pages may change anything.
      const site = request.headers.get('sec-fetch-site');
      if (request.method !== 'GET' && site && site !== 'same-origin' && site !== 'none') {
        return new Response(JSON.stringify({ error: 'Cross-site request refused' }), {
          status: 403,
          headers: { 'content-type': 'application/json' },
        });
      }
      url.pathname = found.inner;
      return apps[found.prefix].fetch(new Request(url, request), env);
    },
    close() {
      vertesia.close();
      bilby.close();
    },
  };
}
