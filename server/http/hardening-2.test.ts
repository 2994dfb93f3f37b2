// Issue 26, the second hardening round: no path or header that turns the proxy against its own
// keys, answers from upstreams that cannot run on the portal's origin, and settings checked before
// the server listens. Real sockets throughout (server/http/test-support.ts).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockBackend } from '../../mock/app';
import { createBilbyMock } from '../../mock/bilby/app';
import { createVertesiaMock } from '../../mock/vertesia/app';
import { rewriteLocation } from '../proxy/proxy';
import { readSettings } from '../settings/settings';
import { API_RESPONSE_CSP } from './api-response';
import type { MountedSource } from './portal';
import { unsafePathReason } from './safe-path';
import { HOST, recordingUpstream, send, startPortal } from './test-support';

const json = { 'content-type': 'application/json' };

const closers: Array<() => void> = [];
function cleanupMock(close: () => void) {
  closers.push(close);
}
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** A portal whose Reflexio is at `<gateway>/reflexio/` and Vertesia at `<gateway>/vertesia/`. */
async function portalBehindGateway() {
  const gateway = await recordingUpstream();
  const vertesia: MountedSource = {
    prefix: 'vertesia',
    name: 'Vertesia',
    upstream: { url: `${gateway.origin}/vertesia/`, apiKey: 'vertesia-key' },
  };
  const portal = await startPortal({
    upstream: { url: `${gateway.origin}/reflexio/`, apiKey: 'reflexio-key' },
    sources: [vertesia],
  });
  return { gateway, portal };
}

/**
 * A GET with `target` exactly as the request line's target (an absolute form included), read
 * until the connection closes: `complete` is false when the answer was cut off.
 */
function rawGet(
  origin: string,
  target: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; bytes: number; complete: boolean }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request(
      { hostname, port, path: target, headers: { host: HOST, ...headers } },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on('close', () =>
          resolve({ status: res.statusCode ?? 0, bytes, complete: res.complete }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('encoded paths never leave a system’s prefix (item 2)', () => {
  it('refuses encoded slashes, dots and backslashes, double encoding included, with 400 and one log line', async () => {
    const { gateway, portal } = await portalBehindGateway();
    const attempts = [
      '/api/..%2f..%2finternal-admin/x',
      '/api/..%2F..%2Finternal-admin/x',
      '/api/%2e%2e%2f%2e%2e%2finternal-admin/x',
      '/api/..%5c..%5cinternal-admin/x',
      '/api/..%252f..%252finternal-admin/x',
      '/api/pending_tool_calls/%2e%2e%252f%2e%2e',
      '/api/pending_tool_calls/a%00b',
      '/vertesia/api/..%2f..%2freflexio/api/pending_tool_calls',
      '/vertesia/api/v1/pending-asks/..%2f..%2f..%2freflexio',
    ];
    for (const attempt of attempts) {
      const reply = await send(portal.origin, { path: attempt });
      expect(reply.status, attempt).toBe(400);
      expect(JSON.parse(reply.body).detail, attempt).toMatch(/^Path refused: /);
    }
    expect(gateway.seen).toEqual([]);
    expect(portal.log).toHaveLength(attempts.length);
    expect(portal.log.every((line) => / → 400 refused$/.test(line))).toBe(true);
  });

  it('lets plain paths through, each with its own system’s key and nothing else', async () => {
    const { gateway, portal } = await portalBehindGateway();
    await send(portal.origin, { path: '/api/pending_tool_calls?status=pending' });
    await send(portal.origin, { path: '/vertesia/api/v1/pending-asks' });
    await send(portal.origin, { path: '/api/pending_tool_calls/ptc_a%20b' });
    expect(gateway.seen.map((seen) => [seen.url, seen.headers.authorization])).toEqual([
      ['/reflexio/api/pending_tool_calls?status=pending', 'Bearer reflexio-key'],
      ['/vertesia/api/v1/pending-asks', 'Bearer vertesia-key'],
      ['/reflexio/api/pending_tool_calls/ptc_a%20b', 'Bearer reflexio-key'],
    ]);
  });

  it('names the reason for each refused shape', () => {
    expect(unsafePathReason('/api/pending_tool_calls/ptc_1')).toBeNull();
    expect(unsafePathReason('/api/x%20y')).toBeNull();
    expect(unsafePathReason('/api/a%2fb')).toBe('an encoded slash in the path');
    expect(unsafePathReason('/api/a%252fb')).toBe('an encoded slash in the path');
    expect(unsafePathReason('/api/%2e%2e/b')).toBe('a dot segment in the path');
    expect(unsafePathReason('/api/a%5cb')).toBe('a backslash in the path');
    expect(unsafePathReason('/api/a%zzb')).toBe('malformed percent-encoding in the path');
    expect(unsafePathReason('/api/a%25252525252fb')).toBe('a path encoded more than four times');
  });
});

describe('answers from upstreams cannot act on the portal’s origin (item 3)', () => {
  it('drops CORS headers and server banners and adds nosniff and a CSP that runs nothing', async () => {
    const upstream = await recordingUpstream((_seen, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'access-control-allow-origin': '*',
        'access-control-allow-credentials': 'true',
        'access-control-expose-headers': 'x-secret',
        server: 'gunicorn/20.1 (internal-host-7)',
        'x-powered-by': 'Express',
        'content-security-policy': "default-src *; script-src 'unsafe-inline'",
      });
      res.end('{"pending_tool_calls":[]}');
    });
    const portal = await startPortal({ upstream: { url: upstream.origin } });
    const reply = await send(portal.origin, {
      path: '/api/pending_tool_calls',
      headers: { origin: 'https://evil.example' },
    });
    expect(reply.status).toBe(200);
    for (const name of Object.keys(reply.headers)) {
      expect(name.startsWith('access-control-'), name).toBe(false);
    }
    expect(reply.headers.server).toBeUndefined();
    expect(reply.headers['x-powered-by']).toBeUndefined();
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.headers['content-security-policy']).toBe(API_RESPONSE_CSP);
    expect(API_RESPONSE_CSP).toContain("default-src 'none'");
    expect(API_RESPONSE_CSP).toContain('sandbox');
    expect(reply.headers['content-type']).toBe('application/json');
  });

  it('never serves an upstream’s HTML as a page: it goes out as text, its type named for the client', async () => {
    const page = '<script>fetch("/api/pending_tool_calls/x/cancel",{method:"POST"})</script>';
    for (const type of ['text/html; charset=utf-8', 'application/xhtml+xml', 'image/svg+xml', '']) {
      const upstream = await recordingUpstream((_seen, res) => {
        res.writeHead(200, type ? { 'content-type': type } : {});
        res.end(page);
      });
      const portal = await startPortal({ upstream: { url: upstream.origin } });
      const reply = await send(portal.origin, { path: '/api/pending_tool_calls' });
      expect(reply.headers['content-type'], type).toMatch(/^text\/plain; charset=utf-8$/i);
      expect(reply.headers['content-security-policy'], type).toBe(API_RESPONSE_CSP);
      expect(reply.headers['x-upstream-content-type'], type).toBe(
        type.startsWith('text/html') || type.startsWith('application/xhtml')
          ? 'text/html'
          : undefined,
      );
    }
  });

  it('does the same for the mock: its HTML fault is text, and its sign-in page runs no script', async () => {
    const mock = createMockBackend({ seed: 'empty' });
    cleanupMock(mock.close);
    const portal = await startPortal({ mock: mock.app });
    const fault = await send(portal.origin, {
      method: 'POST',
      path: '/__mock/faults',
      headers: json,
      body: JSON.stringify({ kind: 'html' }),
    });
    expect(fault.status).toBe(201);
    expect(fault.headers['content-security-policy']).toBe(API_RESPONSE_CSP);
    const list = await send(portal.origin, { path: '/api/pending_tool_calls' });
    expect(list.headers['content-type']).toMatch(/^text\/plain; charset=utf-8$/i);
    expect(list.headers['x-upstream-content-type']).toBe('text/html');
    const signIn = await send(portal.origin, { path: '/__mock/sign-in' });
    expect(signIn.headers['content-type']).toContain('text/html');
    expect(signIn.headers['content-security-policy']).toMatch(/^default-src 'none';/);
    expect(signIn.headers['content-security-policy']).not.toMatch(/script-src/);
    expect(signIn.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });
});

describe('request headers: an allow-list, never the client’s identity (item 4)', () => {
  it('forwards what the portal sends and drops overrides, rewrites and identity headers', async () => {
    const upstream = await recordingUpstream();
    const portal = await startPortal({ upstream: { url: upstream.origin, apiKey: 'k' } });
    await send(portal.origin, {
      method: 'POST',
      path: '/api/pending_tool_calls/ptc_1/resolve',
      headers: {
        ...json,
        accept: 'application/json',
        'user-agent': 'Mozilla/5.0 test',
        'if-match': '"v1"',
        'x-http-method-override': 'DELETE',
        'x-http-method': 'DELETE',
        'x-method-override': 'DELETE',
        'x-original-url': '/internal-admin',
        'x-rewrite-url': '/internal-admin',
        'x-forwarded-user': 'mallory',
        'x-forwarded-email': 'mallory@evil.example',
        'x-auth-request-email': 'mallory@evil.example',
        'remote-user': 'mallory',
        'x-forwarded-prefix': '/admin',
        forwarded: 'for=1.2.3.4;proto=https',
        cookie: 'session=abc',
        authorization: 'Bearer client-token',
      },
      body: '{"result":"yes"}',
    });
    const at = upstream.seen[0]?.headers ?? {};
    expect(at['content-type']).toBe('application/json');
    expect(at.accept).toBe('application/json');
    expect(at['user-agent']).toBe('Mozilla/5.0 test');
    expect(at['if-match']).toBe('"v1"');
    expect(at.authorization).toBe('Bearer k');
    for (const name of [
      'x-http-method-override',
      'x-http-method',
      'x-method-override',
      'x-original-url',
      'x-rewrite-url',
      'x-forwarded-user',
      'x-forwarded-email',
      'x-auth-request-email',
      'remote-user',
      'x-forwarded-prefix',
      'forwarded',
      'cookie',
    ]) {
      expect(at[name], name).toBeUndefined();
    }
    expect(upstream.seen[0]?.method).toBe('POST');
  });

  it('sets X-Forwarded-Proto from the connection, not from an absolute-form request line (item 12)', async () => {
    const upstream = await recordingUpstream();
    const portal = await startPortal({ upstream: { url: upstream.origin } });
    const { port } = new URL(portal.origin);
    await rawGet(portal.origin, `https://localhost:${port}/api/pending_tool_calls`, {
      'x-forwarded-proto': 'https',
    });
    expect(upstream.seen[0]?.url).toBe('/api/pending_tool_calls');
    expect(upstream.seen[0]?.headers['x-forwarded-proto']).toBe('http');
  });
});

describe('source maps, however their name is encoded (item 5)', () => {
  function distWithMap(): string {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'qi-maps-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><base href="/" />');
    writeFileSync(path.join(dir, 'assets', 'index-abc.js'), 'x()');
    writeFileSync(path.join(dir, 'assets', 'index-abc.js.map'), '{"sourcesContent":["secret"]}');
    return dir;
  }

  it('answers 404 to every name that decodes to .map unless SOURCE_MAPS=1', async () => {
    const distDir = distWithMap();
    const portal = await startPortal({ distDir });
    const names = [
      '/assets/index-abc.js.map',
      '/assets/index-abc.js.%6dap',
      '/assets/index-abc.js.ma%70',
      '/assets/index-abc.js%2emap',
      '/assets/index-abc.js%2Emap',
      '/assets/index-abc.js.%256dap',
      '/assets/index-abc.js.MAP',
    ];
    for (const name of names) {
      const reply = await send(portal.origin, { path: name });
      expect(reply.status, name).toBe(404);
      expect(reply.body, name).not.toContain('secret');
    }
    const withMaps = await startPortal({ distDir, sourceMaps: true });
    expect((await send(withMaps.origin, { path: '/assets/index-abc.js.%6dap' })).body).toContain(
      'sourcesContent',
    );
  });
});

describe('one key and one tenant bound for all three mocks (item 6)', () => {
  const mocks = () => {
    const reflexio = createMockBackend({ controlKey: 'mk', apiKey: 'mk', maxTenants: 5 });
    const vertesia = createVertesiaMock({ controlKey: 'mk', apiKey: 'mk', maxTenants: 5 });
    const bilby = createBilbyMock({ controlKey: 'mk', apiKey: 'mk', maxTenants: 5 });
    cleanupMock(reflexio.close);
    cleanupMock(vertesia.close);
    cleanupMock(bilby.close);
    return { reflexio, vertesia, bilby };
  };

  it('refuses every control route of Vertesia and Bilby without the key', async () => {
    const { vertesia, bilby } = mocks();
    const routes: Array<[string, string, string?]> = [
      ['GET', '/__mock/state'],
      ['GET', '/__mock'],
      ['POST', '/__mock/faults', '{"kind":"status","status":500}'],
      ['POST', '/__mock/clock', '{"advanceMs":1000}'],
      ['POST', '/__mock/reset', '{}'],
    ];
    for (const [name, app] of [
      ['vertesia', vertesia.app],
      ['bilby', bilby.app],
    ] as const) {
      for (const [method, route, body] of routes) {
        const refused = await app.request(route, { method, body, headers: json });
        expect(refused.status, `${name} ${method} ${route}`).toBe(401);
        const allowed = await app.request(route, {
          method,
          body,
          headers: { ...json, authorization: 'Bearer mk' },
        });
        expect(allowed.status, `${name} ${method} ${route} with the key`).toBeLessThan(300);
      }
    }
  });

  it('makes no tenant for a refused request, and keeps at most MOCK_MAX_TENANTS', async () => {
    const { reflexio, vertesia, bilby } = mocks();
    const apps = [
      ['reflexio', reflexio, '/api/pending_tool_calls'],
      ['vertesia', vertesia, '/api/v1/pending-asks'],
      ['bilby', bilby, '/api/v1/conversations'],
    ] as const;
    for (const [name, mock, apiPath] of apps) {
      const before = mock.tenantCount();
      for (let i = 0; i < 50; i++) {
        const refused = await mock.app.request(apiPath, { headers: { 'x-mock-tenant': `t-${i}` } });
        expect(refused.status, name).toBe(401);
        const control = await mock.app.request('/__mock/state', {
          headers: { 'x-mock-tenant': `c-${i}` },
        });
        expect(control.status, name).toBe(401);
      }
      expect(mock.tenantCount(), `${name}: refused requests made tenants`).toBe(before);
      for (let i = 0; i < 20; i++) {
        const state = await mock.app.request('/__mock/state', {
          headers: { authorization: 'Bearer mk', 'x-mock-tenant': `kept-${i}` },
        });
        expect(state.status, name).toBe(200);
      }
      expect(mock.tenantCount(), name).toBe(5);
    }
  });
});

describe('settings are checked before the server listens (item 7)', () => {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

  it('names the setting and what it accepts for each bad value', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ PORT: 'abc' }, /^PORT must be a whole number from 0 to 65,535, not "abc"\.$/],
      [{ PORT: '70000' }, /^PORT must be/],
      [
        { UPSTREAM_TIMEOUT_MS: '1e10' },
        /^UPSTREAM_TIMEOUT_MS must be a whole number from 100 to 600,000 milliseconds/,
      ],
      [
        { FRAME_ANCESTORS: "'self'\r\nX-Injected: 1" },
        /^FRAME_ANCESTORS must be a space-separated list of CSP sources/,
      ],
      [{ FRAME_ANCESTORS: "'self'; script-src *" }, /^FRAME_ANCESTORS must be/],
      [{ BASE_PATH: '//evil.example/' }, /^BASE_PATH must be a path of plain segments/],
      [{ BASE_PATH: '/a/../b/' }, /^BASE_PATH must be/],
      [{ BASE_PATH: '/a b/' }, /^BASE_PATH must be/],
      [{ MAX_BODY_BYTES: '-1' }, /^MAX_BODY_BYTES must be/],
      [{ MAX_RESPONSE_BYTES: '1' }, /^MAX_RESPONSE_BYTES must be/],
      [{ MOCK_MAX_TENANTS: '0' }, /^MOCK_MAX_TENANTS must be/],
      [{ MOCK_SEED: 'everything' }, /^MOCK_SEED must be one of demo, empty/],
      [{ MOCK_LATENCY_MS: 'slow' }, /^MOCK_LATENCY_MS must be/],
      [{ MOCK_SIMULATOR_SECONDS: 'NaN' }, /^MOCK_SIMULATOR_SECONDS must be/],
      [{ SOURCE_MAPS: 'yes' }, /^SOURCE_MAPS must be one of 0, 1/],
      [{ ALLOWED_HOSTS: 'portal.example.com, evil/path' }, /^ALLOWED_HOSTS must be/],
      [{ HOST: 'local host' }, /^HOST must be/],
      [{ REFLEXIO_URL: 'ftp://x' }, /^REFLEXIO_URL must start with http/],
      [
        { REFLEXIO_URL: 'http://r', REFLEXIO_API_KEY: 'key\r\nX: 1' },
        /^REFLEXIO_API_KEY must be visible ASCII/,
      ],
      [{ BILBY_ORGANIZATION_ID: 'acme' }, /^BILBY_ORGANIZATION_ID must be a UUID/],
    ];
    for (const [env, message] of cases) {
      const result = readSettings(env);
      expect(result.ok, JSON.stringify(env)).toBe(false);
      if (!result.ok) {
        expect(result.problems, JSON.stringify(env)).toHaveLength(1);
        expect(result.problems[0], JSON.stringify(env)).toMatch(message);
        expect(result.problems[0]).not.toMatch(/[\r\n]/);
      }
    }
  });

  it('takes good values as given', () => {
    const result = readSettings({
      PORT: '8080',
      BASE_PATH: 'agents/inbox',
      FRAME_ANCESTORS: "'self' https://portal.example.com https://*.example.org:443",
      UPSTREAM_TIMEOUT_MS: '45000',
      ALLOWED_HOSTS: 'inbox.example.com, 10.0.0.5:8080 ,[::1]:8080',
      MOCK_SIMULATOR_SECONDS: '0.5',
      SOURCE_MAPS: '1',
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.settings.port).toBe(8080);
    expect(result.settings.basePath).toBe('/agents/inbox/');
    expect(result.settings.allowedHosts).toEqual([
      'inbox.example.com',
      '10.0.0.5:8080',
      '[::1]:8080',
    ]);
    expect(result.settings.mock.simulatorIntervalMs).toBe(500);
    expect(result.settings.sourceMaps).toBe(true);
    expect(readSettings({}).ok).toBe(true);
  });

  it('stops npm start at once with one line and no stack trace', () => {
    for (const [name, value] of [
      ['PORT', 'abc'],
      ['UPSTREAM_TIMEOUT_MS', '1e10'],
      ['FRAME_ANCESTORS', "'self'\r\nx"],
      ['BASE_PATH', '//evil.example/'],
    ] as const) {
      const started = spawnSync(process.execPath, ['--import', 'tsx', 'server/start.ts'], {
        cwd: root,
        encoding: 'utf8',
        timeout: 20_000,
        env: { ...process.env, [name]: value },
      });
      expect(started.status, name).toBe(1);
      const lines = started.stderr.trim().split('\n');
      expect(lines, name).toHaveLength(1);
      expect(lines[0], name).toMatch(new RegExp(`^Cannot start: ${name} must be `));
      expect(started.stderr, name).not.toMatch(/\bat .*\.ts:\d+/);
    }
  }, 60_000);
});

describe('smaller holes (item 12)', () => {
  it('never names the upstream’s own host in a redirect', () => {
    const base = new URL('http://gw.internal/reflexio/');
    const target = new URL('http://gw.internal/reflexio/api/pending_tool_calls/ptc_1/resolve');
    const at = (location: string) =>
      rewriteLocation(location, target, base, '/api/pending_tool_calls/ptc_1/resolve');
    expect(at('/reflexio/api/pending_tool_calls/ptc_1')).toBe(
      '../../../api/pending_tool_calls/ptc_1',
    );
    expect(at('../ptc_2')).toBe('../../../api/pending_tool_calls/ptc_2');
    expect(at('http://gw.internal/reflexio/api/x?y=1')).toBe('../../../api/x?y=1');
    expect(at('/internal-admin/login?rd=1')).toBe('/internal-admin/login?rd=1');
    expect(at('https://sso.example.com/sign_in')).toBe('https://sso.example.com/sign_in');
    // The relative form lands on the same question under the portal, whatever its base path.
    expect(
      new URL(
        '../../../api/pending_tool_calls/ptc_1',
        'https://p.example/team/inbox/api/pending_tool_calls/ptc_1/resolve',
      ).pathname,
    ).toBe('/team/inbox/api/pending_tool_calls/ptc_1');
  });

  it('cuts off an upstream gzip bomb at MAX_RESPONSE_BYTES and drops its Server header', async () => {
    const bomb = gzipSync(Buffer.alloc(8 * 1_048_576, 0x20));
    const upstream = await recordingUpstream((_seen, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        server: 'internal-gateway/1.2',
      });
      res.end(bomb);
    });
    const portal = await startPortal({
      upstream: { url: upstream.origin, maxResponseBytes: 1_048_576 },
    });
    const reply = await rawGet(portal.origin, '/api/pending_tool_calls');
    expect(bomb.byteLength).toBeLessThan(100_000);
    expect(reply.bytes).toBeLessThanOrEqual(1_048_576);
    expect(reply.complete).toBe(false);
    expect(portal.log.some((line) => line.includes('answer too large'))).toBe(true);

    const declared = await recordingUpstream((_seen, res) => {
      const body = Buffer.alloc(2 * 1_048_576, 0x20);
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(body.byteLength),
        server: 'internal/1',
      });
      res.end(body);
    });
    const other = await startPortal({
      upstream: { url: declared.origin, maxResponseBytes: 1_048_576 },
    });
    const refused = await send(other.origin, { path: '/api/pending_tool_calls' });
    expect(refused.status).toBe(502);
    expect(JSON.parse(refused.body).detail).toMatch(/larger than the portal takes/);
    expect(refused.headers.server).toBeUndefined();
  });

  it('bounds the mock clock: a step over a year or an offset over ten years is refused', async () => {
    for (const mock of [
      createMockBackend({ seed: 'empty' }),
      createVertesiaMock({ seed: 'empty' }),
      createBilbyMock({ seed: 'empty' }),
    ]) {
      cleanupMock(mock.close);
      const move = (advanceMs: number) =>
        mock.app.request('/__mock/clock', {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ advanceMs }),
        });
      const refusedStatus = [400, 422];
      expect(refusedStatus).toContain((await move(8.7e15)).status);
      expect(refusedStatus).toContain((await move(-8.7e15)).status);
      const year = 365 * 24 * 60 * 60 * 1000;
      for (let i = 0; i < 10; i++) expect((await move(year)).status).toBe(200);
      expect(refusedStatus).toContain((await move(year)).status);
      const state = await (await mock.app.request('/__mock/state')).json();
      expect(Number.isFinite(new Date(state.now ?? state.nowMs).getTime())).toBe(true);
    }
  });
});

describe('the team settings in config.json (issue 28)', () => {
  it('reads claimMinutes and maxClaims from the config.json it serves; the variables override them', () => {
    const fromFile = readSettings({}, { claimMinutes: 5, maxClaims: 3 });
    expect(fromFile.ok && fromFile.settings.team).toMatchObject({ claimMinutes: 5, maxClaims: 3 });
    const overridden = readSettings({ CLAIM_MINUTES: '20' }, { claimMinutes: 5 });
    expect(overridden.ok && overridden.settings.team.claimMinutes).toBe(20);
    const defaults = readSettings({}, { pollIntervalMs: 10_000 });
    expect(defaults.ok && defaults.settings.team).toMatchObject({
      claimMinutes: 15,
      maxClaims: 50,
    });
    const bad = readSettings({}, { maxClaims: 2.5 });
    expect(bad.ok).toBe(false);
    if (!bad.ok)
      expect(bad.problems).toEqual([
        expect.stringMatching(/^config.json's maxClaims must be a whole number from 1 to 10,000/),
      ]);
  });
});
