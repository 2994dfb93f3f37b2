import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockBackend } from '../../mock/app';
import {
  type ConfigSource,
  contentSecurityPolicy,
  createPortalApp,
  normalizeBasePath,
} from './portal';

function fakeDist(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'qi-dist-'));
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><base href="/" /><script type="module" src="./assets/app-abc123.js"></script></head><body></body></html>',
  );
  writeFileSync(path.join(dir, 'config.json'), '{"apiBaseUrl":"api"}');
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), 'console.log(1)');
  return dir;
}

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A stand-in Reflexio that echoes what reached it. */
async function echoUpstream(): Promise<string> {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        url: req.url,
        method: req.method,
        authorization: req.headers.authorization ?? null,
        cookie: req.headers.cookie ?? null,
        userAgent: req.headers['user-agent'] ?? null,
      }),
    );
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('the one-port server', () => {
  it('normalizes base paths', () => {
    expect(normalizeBasePath(undefined)).toBe('/');
    expect(normalizeBasePath('agents/inbox')).toBe('/agents/inbox/');
    expect(normalizeBasePath('/agents/inbox/')).toBe('/agents/inbox/');
  });

  it('serves index.html for every app route, with the base path, CSP and no caching', async () => {
    const app = createPortalApp({ distDir: fakeDist(), basePath: '/agents/inbox/' });
    for (const route of [
      '/agents/inbox/',
      '/agents/inbox/questions',
      '/agents/inbox/questions/ptc_1?status=all',
    ]) {
      const response = await app.request(route);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain('<base href="/agents/inbox/" />');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('content-security-policy')).toBe(contentSecurityPolicy());
    }
    expect((await app.request('/')).headers.get('location')).toBe('/agents/inbox/');
  });

  it('caches hashed assets for a year and config.json not at all', async () => {
    const app = createPortalApp({ distDir: fakeDist() });
    const asset = await app.request('/assets/app-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const config = await app.request('/config.json');
    expect(config.headers.get('cache-control')).toBe('no-store');
    expect((await app.request('/assets/missing.js')).status).toBe(404);
  });

  it('puts the mock behind /api and /__mock under the base path', async () => {
    const mock = createMockBackend({ sweepIntervalMs: 0 });
    const app = createPortalApp({ distDir: fakeDist(), basePath: '/inbox/', mock: mock.app });
    const response = await app.request('/inbox/api/pending_tool_calls?status=pending&limit=2');
    expect(response.status).toBe(200);
    expect(
      ((await response.json()) as { pending_tool_calls: unknown[] }).pending_tool_calls,
    ).toHaveLength(2);
    expect((await app.request('/inbox/__mock/state')).status).toBe(200);
    mock.close();
  });

  it('proxies /api to a real Reflexio with the API key added server-side, never the browser’s cookies', async () => {
    const upstream = await echoUpstream();
    const app = createPortalApp({ upstream: { url: upstream, apiKey: 'secret-key' } });
    const response = await app.request('/api/pending_tool_calls?status=pending', {
      headers: {
        cookie: 'session=abc',
        authorization: 'Bearer from-browser',
        'user-agent': 'Mozilla/5.0 test',
      },
    });
    const seen = (await response.json()) as Record<string, string | null>;
    expect(seen).toMatchObject({
      url: '/api/pending_tool_calls?status=pending',
      authorization: 'Bearer secret-key',
      cookie: null,
      userAgent: 'Mozilla/5.0 test',
    });
    // The mock's control surface does not exist in front of a real Reflexio.
    expect((await app.request('/__mock/state')).status).toBe(404);
  });

  it('spends the API key only for the portal’s own pages on an allowed host', async () => {
    const upstream = await echoUpstream();
    const app = createPortalApp({
      upstream: { url: upstream, apiKey: 'secret-key' },
      allowedHosts: ['localhost:5173'],
    });
    const fromPortal = await app.request('http://localhost:5173/api/pending_tool_calls/x/cancel', {
      method: 'POST',
      headers: { host: 'localhost:5173', 'sec-fetch-site': 'same-origin' },
    });
    expect(fromPortal.status).toBe(200);
    const crossSite = await app.request('http://localhost:5173/api/pending_tool_calls/x/cancel', {
      method: 'POST',
      headers: { host: 'localhost:5173', 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    const rebound = await app.request('http://evil.example:5173/api/pending_tool_calls', {
      headers: { host: 'evil.example:5173' },
    });
    expect(rebound.status).toBe(403);
    expect(await rebound.json()).toEqual({ detail: expect.stringContaining('ALLOWED_HOSTS') });
  });

  it('answers 502 in FastAPI shape when the real Reflexio cannot be reached', async () => {
    const app = createPortalApp({ upstream: { url: 'http://127.0.0.1:9' } });
    const response = await app.request('/api/pending_tool_calls');
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({
      detail: expect.stringContaining('could not be reached'),
    });
  });
});

describe('config.json sources (issue 13)', () => {
  const sources: ConfigSource[] = [
    { id: 'reflexio', kind: 'reflexio', apiBaseUrl: 'api' },
    { id: 'vertesia', kind: 'vertesia', apiBaseUrl: 'vertesia/api/v1', apiVersion: '20260803' },
  ];

  it('lists the sources the server serves, the file’s apiBaseUrl kept as the Reflexio source', async () => {
    const dist = fakeDist();
    writeFileSync(
      path.join(dist, 'config.json'),
      '{"apiBaseUrl":"https://reflexio.example/","pollIntervalMs":5000}',
    );
    const app = createPortalApp({ distDir: dist, configSources: sources });
    const response = await app.request('/config.json');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({
      pollIntervalMs: 5000,
      sources: [{ ...sources[0], apiBaseUrl: 'https://reflexio.example/' }, sources[1]],
    });
  });

  it('keeps an operator’s own sources, and serves a broken file as it is for the portal to name', async () => {
    const dist = fakeDist();
    const own = '{"sources":[{"id":"r","kind":"reflexio","apiBaseUrl":"api"}]}';
    writeFileSync(path.join(dist, 'config.json'), own);
    const app = createPortalApp({ distDir: dist, configSources: sources });
    expect(await (await app.request('/config.json')).json()).toEqual(JSON.parse(own));
    writeFileSync(path.join(dist, 'config.json'), '{"apiBaseUrl":');
    expect(await (await app.request('/config.json')).text()).toBe('{"apiBaseUrl":');
  });
});
