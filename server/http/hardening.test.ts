// The server as an attacker and a misbehaving network meet it: real sockets, a stand-in Reflexio
// on a random port, requests written with node:http so every header is exactly as sent.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { createMockBackend, type MockBackend } from '../../mock/app';
import { createVertesiaMock } from '../../mock/vertesia/app';
import { redactUrl } from '../lib/redact-url';
import { parseUpstreamUrl } from '../proxy/proxy';
import { createPortalApp } from './portal';
import { cleanups, HOST, MB, recordingUpstream, send, startPortal } from './test-support';

const json = { 'content-type': 'application/json' };
const cancelPath = '/api/pending_tool_calls/ptc_x/cancel';

describe('cross-site writes (item 1)', () => {
  it('refuses a cross-site form POST that carries only Origin, before the upstream sees it', async () => {
    const upstream = await recordingUpstream();
    const portal = await startPortal({ upstream: { url: upstream.origin, apiKey: 'secret' } });

    // What Chromium sends for an auto-submitted form on plain HTTP to a non-localhost name.
    const formPost = await send(portal.origin, {
      method: 'POST',
      path: cancelPath,
      headers: { origin: 'http://evil.example', 'content-type': 'text/plain' },
      body: '{"x":1}',
    });
    expect(formPost.status).toBe(403);
    expect(JSON.parse(formPost.body).detail).toMatch(/Cross-site request refused/);

    const jsonFromElsewhere = await send(portal.origin, {
      method: 'POST',
      path: cancelPath,
      headers: { origin: 'http://evil.example', ...json },
    });
    expect(jsonFromElsewhere.status).toBe(403);
    const nullOrigin = await send(portal.origin, {
      method: 'PATCH',
      path: cancelPath,
      headers: { origin: 'null', ...json },
    });
    expect(nullOrigin.status).toBe(403);
    const sameSite = await send(portal.origin, {
      method: 'POST',
      path: cancelPath,
      headers: { 'sec-fetch-site': 'same-site', origin: `http://${HOST}` },
    });
    expect(sameSite.status).toBe(403);
    expect(upstream.seen).toHaveLength(0);
    expect(portal.log).toContain(`[proxy] POST ${cancelPath} → 403 refused`);
  });

  it('refuses the content types a plain HTML form can send, whatever the origin', async () => {
    const upstream = await recordingUpstream();
    const portal = await startPortal({ upstream: { url: upstream.origin } });
    for (const type of [
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const reply = await send(portal.origin, {
        method: 'POST',
        path: cancelPath,
        headers: { origin: `http://${HOST}`, 'content-type': type },
        body: 'a=1',
      });
      expect(reply.status, type).toBe(415);
      expect(JSON.parse(reply.body).detail).toMatch(/application\/json/);
    }
    expect(upstream.seen).toHaveLength(0);
  });

  it('lets through the portal’s own pages, allowed hosts and clients that are no browser', async () => {
    const upstream = await recordingUpstream();
    const portal = await startPortal({
      upstream: { url: upstream.origin },
      allowedHosts: [HOST, 'inbox.example.com'],
    });
    const writes: Record<string, string>[] = [
      { origin: `http://${HOST}` },
      { origin: 'https://inbox.example.com' },
      { 'sec-fetch-site': 'same-origin', origin: `http://${HOST}` },
      { 'sec-fetch-site': 'none' },
      {}, // curl, a script, another server: no browser page, no reviewer's cookies
    ];
    for (const headers of writes) {
      const reply = await send(portal.origin, {
        method: 'POST',
        path: cancelPath,
        headers: { ...headers, ...json },
        body: '{}',
      });
      expect(reply.status, JSON.stringify(headers)).toBe(200);
    }
    expect(upstream.seen).toHaveLength(writes.length);
  });

  it('protects the demo: a cross-site form cannot cancel a question in the mock', async () => {
    const mock = createMockBackend({ sweepIntervalMs: 0 });
    cleanups.push(() => mock.close());
    const portal = await startPortal({ mock: mock.app });
    const list = await send(portal.origin, {
      path: '/api/pending_tool_calls?status=pending&limit=1',
    });
    const id = JSON.parse(list.body).pending_tool_calls[0].id as string;
    const form = await send(portal.origin, {
      method: 'POST',
      path: `/api/pending_tool_calls/${id}/cancel`,
      headers: { origin: 'http://evil.example', 'content-type': 'text/plain' },
    });
    expect(form.status).toBe(403);
    const after = await send(portal.origin, { path: `/api/pending_tool_calls/${id}` });
    expect(JSON.parse(after.body).status).toBe('pending');
  });
});

/** RSS of this process, sampled every 5 ms until stopped: the highest value seen. */
function sampleRss(): { stop(): number } {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage.rss());
    },
  };
}

/** Streams `total` bytes chunked (no Content-Length) and resolves with the first answer. */
function streamBody(
  origin: string,
  path: string,
  total: number,
): Promise<{ status: number; sent: number }> {
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let sent = 0;
    let answered = false;
    const req = request(`${origin}${path}`, {
      method: 'POST',
      headers: { host: HOST, ...json, 'transfer-encoding': 'chunked' },
    });
    req.on('response', (res) => {
      answered = true;
      res.resume();
      resolve({ status: res.statusCode ?? 0, sent });
      req.destroy();
    });
    // After the answer the server may close while we still write: that is expected.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const pump = () => {
      while (!answered && sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

describe('request bodies (item 2)', () => {
  it('answers 413 to a 50 MB streamed body as soon as it passes the cap; the upstream gets nothing', async () => {
    const upstream = await recordingUpstream();
    const portal = await startPortal({ upstream: { url: upstream.origin } });
    // Warm up code paths so their one-off allocations do not count as growth.
    await send(portal.origin, { method: 'POST', path: cancelPath, headers: json, body: '{}' });
    const before = process.memoryUsage.rss();
    const rss = sampleRss();
    const reply = await streamBody(portal.origin, cancelPath, 50 * MB);
    const growth = (rss.stop() - before) / MB;
    expect(reply.status).toBe(413);
    // Answered long before the 50 MB were sent (the socket buffers hold a few MB at most).
    expect(reply.sent).toBeLessThan(10 * MB);
    expect(growth).toBeLessThan(30);
    expect(upstream.seen).toHaveLength(1); // the warm-up only
    console.info(
      `50 MB streamed: 413 after ${(reply.sent / MB).toFixed(1)} MB sent, peak RSS growth ${growth.toFixed(1)} MB`,
    );
  });

  it('answers 413 to a declared Content-Length over the cap without reading the body', async () => {
    const upstream = await recordingUpstream();
    const portal = await startPortal({ upstream: { url: upstream.origin }, maxBodyBytes: 1000 });
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${portal.origin}${cancelPath}`, {
        method: 'POST',
        headers: { host: HOST, ...json, 'content-length': String(50 * MB) },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', reject);
      req.flushHeaders(); // headers only: not a byte of the body is ever written
    });
    expect(status).toBe(413);
    expect(upstream.seen).toHaveLength(0);
  });

  it('caps the mock and its control routes too, chunked or not', async () => {
    const mock = createMockBackend({ sweepIntervalMs: 0 });
    cleanups.push(() => mock.close());
    const portal = await startPortal({ mock: mock.app, maxBodyBytes: 10_000 });
    for (const path of ['/__mock/questions', '/api/pending_tool_calls/ptc_x/resolve']) {
      expect((await streamBody(portal.origin, path, 5 * MB)).status, path).toBe(413);
      const declared = await send(portal.origin, {
        method: 'POST',
        path,
        headers: json,
        body: JSON.stringify({ question: 'x'.repeat(20_000) }),
      });
      expect(declared.status, path).toBe(413);
      expect(JSON.parse(declared.body).detail).toMatch(/too large/);
    }
  });

  it('handles Expect: 100-continue: the go-ahead for a body within the cap, 413 without it over', async () => {
    const upstream = await recordingUpstream();
    const portal = await startPortal({ upstream: { url: upstream.origin }, maxBodyBytes: 1000 });
    const expecting = (body: string, length: number) =>
      new Promise<{ status: number; continued: boolean }>((resolve, reject) => {
        let continued = false;
        const req = request(`${portal.origin}${cancelPath}`, {
          method: 'POST',
          headers: {
            host: HOST,
            ...json,
            expect: '100-continue',
            'content-length': String(length),
          },
        });
        req.on('continue', () => {
          continued = true;
          req.end(body);
        });
        req.on('response', (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, continued }));
        });
        req.on('error', reject);
        req.flushHeaders();
      });
    const small = '{"reason":"done"}';
    expect(await expecting(small, small.length)).toEqual({ status: 200, continued: true });
    expect(upstream.seen).toHaveLength(1);
    expect(upstream.seen[0]?.bytes).toBe(small.length);
    expect(upstream.seen[0]?.headers.expect).toBeUndefined();
    expect(await expecting('', 5000)).toEqual({ status: 413, continued: false });
    expect(upstream.seen).toHaveLength(1);
  });
});

describe('the mock’s control surface (item 3)', () => {
  async function demo(options: Parameters<typeof createMockBackend>[0] = {}) {
    const mock: MockBackend = createMockBackend({ sweepIntervalMs: 0, ...options });
    cleanups.push(() => mock.close());
    return startPortal({ mock: mock.app });
  }
  const count = async (origin: string) =>
    JSON.parse((await send(origin, { path: '/__mock/state' })).body).calls.length as number;

  it('a no-cors fetch from another site cannot reset the demo', async () => {
    const portal = await demo();
    const before = await count(portal.origin);
    expect(before).toBeGreaterThan(0);
    const attempts: Record<string, string>[] = [
      // fetch(url, {mode: 'no-cors', method: 'POST', body: '{"seed":"empty"}'}) on plain HTTP
      { origin: 'http://evil.example', 'content-type': 'text/plain;charset=UTF-8' },
      { origin: 'http://evil.example' },
      { 'sec-fetch-site': 'cross-site', origin: 'http://evil.example' },
    ];
    for (const headers of attempts) {
      const reply = await send(portal.origin, {
        method: 'POST',
        path: '/__mock/reset',
        headers,
        body: '{"seed":"empty"}',
      });
      expect(reply.status, JSON.stringify(headers)).toBe(403);
    }
    expect(await count(portal.origin)).toBe(before);
  });

  it('answers only under an allowed Host (no DNS rebinding of the demo)', async () => {
    const portal = await demo();
    for (const path of ['/__mock/state', '/api/pending_tool_calls']) {
      const rebound = await send(portal.origin, { path, headers: { host: 'evil.example:5173' } });
      expect(rebound.status, path).toBe(403);
      expect(JSON.parse(rebound.body).detail).toMatch(/ALLOWED_HOSTS/);
    }
    expect((await send(portal.origin, { path: '/__mock/state' })).status).toBe(200);
  });

  it('with MOCK_API_KEY, control routes need the key (the stand-in sign-in page does not)', async () => {
    const portal = await demo({ apiKey: 'k-123', controlKey: 'k-123' });
    expect((await send(portal.origin, { path: '/__mock/state' })).status).toBe(401);
    const reset = await send(portal.origin, {
      method: 'POST',
      path: '/__mock/reset',
      headers: json,
      body: '{}',
    });
    expect(reset.status).toBe(401);
    expect(JSON.parse(reset.body).detail).toMatch(/MOCK_API_KEY/);
    const wrong = await send(portal.origin, {
      path: '/__mock/state',
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.status).toBe(401);
    const right = await send(portal.origin, {
      path: '/__mock/state',
      headers: { authorization: 'Bearer k-123' },
    });
    expect(right.status).toBe(200);
    expect((await send(portal.origin, { path: '/__mock/sign-in' })).status).toBe(200);
  });
});

describe('the proxy as a good citizen (item 4)', () => {
  it('strips hop-by-hop headers both ways and drops the upstream’s Set-Cookie', async () => {
    const upstream = await recordingUpstream((_seen, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        connection: 'x-upstream-hop',
        'x-upstream-hop': 'private',
        'keep-alive': 'timeout=99',
        'proxy-authenticate': 'Basic',
        'set-cookie': ['upstream_session=1; Path=/', 'other=2'],
        'x-kept': 'yes',
      });
      res.end('{}');
    });
    const portal = await startPortal({ upstream: { url: upstream.origin } });
    const reply = await send(portal.origin, {
      method: 'POST',
      path: cancelPath,
      headers: {
        ...json,
        connection: 'keep-alive, x-client-hop',
        'x-client-hop': 'private',
        te: 'trailers',
        trailer: 'x-checksum',
        'proxy-authorization': 'Basic abc',
        'keep-alive': 'timeout=5',
        upgrade: 'h2c',
        'x-client-kept': 'yes',
      },
      body: '{}',
    });
    expect(reply.status).toBe(200);
    const at = upstream.seen[0]?.headers ?? {};
    for (const name of ['x-client-hop', 'te', 'trailer', 'proxy-authorization', 'upgrade']) {
      expect(at[name], name).toBeUndefined();
    }
    expect(at['keep-alive']).toBeUndefined();
    expect(at.connection ?? 'keep-alive').toMatch(/^(keep-alive|close)$/i);
    // Only an allow-list of request headers reaches the upstream (issue 26).
    expect(at['x-client-kept']).toBeUndefined();

    expect(reply.headers['x-upstream-hop']).toBeUndefined();
    expect(reply.headers['proxy-authenticate']).toBeUndefined();
    expect(reply.headers['keep-alive']).not.toBe('timeout=99');
    expect(reply.headers['set-cookie']).toBeUndefined();
    expect(reply.headers['x-kept']).toBe('yes');
  });

  it('replaces the client’s Forwarded, X-Forwarded-* and X-Real-IP with what it saw', async () => {
    const upstream = await recordingUpstream();
    const portal = await startPortal({ upstream: { url: upstream.origin } });
    await send(portal.origin, {
      path: '/api/pending_tool_calls',
      headers: {
        forwarded: 'for=6.6.6.6;host=evil.example',
        'x-forwarded-for': '6.6.6.6',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'https',
        'x-real-ip': '6.6.6.6',
      },
    });
    const at = upstream.seen[0]?.headers ?? {};
    expect(at.forwarded).toBeUndefined();
    expect(at['x-real-ip']).toBeUndefined();
    expect(at['x-forwarded-for']).toBe('127.0.0.1');
    expect(at['x-forwarded-host']).toBe(HOST);
    expect(at['x-forwarded-proto']).toBe('http');
  });

  it('passes redirects on to the browser, a 307 on a POST included', async () => {
    const upstream = await recordingUpstream((seen, res) => {
      if (seen.url.startsWith('/sso/')) {
        res.writeHead(200).end('followed');
        return;
      }
      res.writeHead(seen.method === 'POST' ? 307 : 302, { location: '/sso/sign_in?rd=x' });
      res.end();
    });
    const portal = await startPortal({ upstream: { url: upstream.origin } });
    const get = await send(portal.origin, { path: '/api/pending_tool_calls' });
    expect(get.status).toBe(302);
    // The upstream's own host is never named to the browser (issue 26, item 12).
    expect(get.headers.location).toBe('/sso/sign_in?rd=x');
    const post = await send(portal.origin, {
      method: 'POST',
      path: cancelPath,
      headers: json,
      body: '{}',
    });
    expect(post.status).toBe(307);
    expect(post.headers.location).toBe('/sso/sign_in?rd=x');
    expect(upstream.seen.map((seen) => seen.url)).toEqual(['/api/pending_tool_calls', cancelPath]);
  });

  it('keeps the path of REFLEXIO_URL', async () => {
    const upstream = await recordingUpstream();
    for (const base of ['/reflexio/', '/reflexio']) {
      const portal = await startPortal({ upstream: { url: `${upstream.origin}${base}` } });
      await send(portal.origin, { path: '/api/pending_tool_calls?status=pending' });
    }
    expect(upstream.seen.map((seen) => seen.url)).toEqual([
      '/reflexio/api/pending_tool_calls?status=pending',
      '/reflexio/api/pending_tool_calls?status=pending',
    ]);
  });

  it('refuses credentials in REFLEXIO_URL at start-up and never prints them', () => {
    const parsed = parseUpstreamUrl('http://user:s3cret@reflexio.internal/');
    expect(parsed.ok).toBe(false);
    expect(redactUrl('http://user:s3cret@reflexio.internal/')).toBe(
      'http://***@reflexio.internal/',
    );
    // A password a URL parser reads as a fragment: the URL is invalid, and still never printed.
    const invalid = parseUpstreamUrl('http://user:s3#cret@reflexio.internal/');
    expect(invalid.ok).toBe(false);
    expect(JSON.stringify(invalid)).not.toContain('cret');
    expect(() => createPortalApp({ upstream: { url: 'http://user:s3cret@127.0.0.1:9' } })).toThrow(
      /REFLEXIO_API_KEY/,
    );

    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
    const started = spawnSync(process.execPath, ['--import', 'tsx', 'server/start.ts'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, PORT: '0', REFLEXIO_URL: 'http://user:s3cret@127.0.0.1:9/' },
    });
    expect(started.status).toBe(1);
    expect(started.stderr).toContain('REFLEXIO_URL must not hold a user name or password');
    expect(started.stderr + started.stdout).not.toContain('s3cret');
  }, 30_000);

  it('answers 504 in plain words when the upstream does not answer in time, and logs it', async () => {
    const upstream = await recordingUpstream(() => {
      // Never answers.
    });
    const portal = await startPortal({ upstream: { url: upstream.origin, timeoutMs: 300 } });
    const reply = await send(portal.origin, {
      path: '/api/pending_tool_calls?status=pending',
      headers: { authorization: 'Bearer reviewer-key' },
    });
    expect(reply.status).toBe(504);
    expect(JSON.parse(reply.body)).toEqual({
      detail: 'The Reflexio server did not answer within 0.3 seconds.',
    });
    expect(portal.log).toHaveLength(1);
    expect(portal.log[0]).toMatch(
      /^\[proxy\] GET \/api\/pending_tool_calls → 504 timed out \(upstream \d+ ms\)$/,
    );
  });

  it('logs every failure on one line: method, path without query, status, time; no headers', async () => {
    const upstream = await recordingUpstream((_seen, res) => {
      res.writeHead(500, json).end('{"detail":"boom"}');
    });
    const portal = await startPortal({ upstream: { url: upstream.origin, apiKey: 'the-key' } });
    const failing = await send(portal.origin, {
      path: '/api/pending_tool_calls/ptc_1?token=abc',
      headers: { authorization: 'Bearer reviewer-key' },
    });
    expect(failing.status).toBe(500);
    const down = await startPortal({ upstream: { url: 'http://127.0.0.1:9' } });
    expect((await send(down.origin, { path: '/api/pending_tool_calls?x=1' })).status).toBe(502);
    const lines = [...portal.log, ...down.log];
    expect(lines).toEqual([
      expect.stringMatching(
        /^\[proxy\] GET \/api\/pending_tool_calls\/ptc_1 → 500 from upstream \(upstream \d+ ms\)$/,
      ),
      expect.stringMatching(
        /^\[proxy\] GET \/api\/pending_tool_calls → 502 unreachable.* \(upstream \d+ ms\)$/,
      ),
    ]);
    expect(lines.join('\n')).not.toMatch(/abc|the-key|reviewer-key|x=1/);
  });
});

function distWithMaps(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'qi-dist-'));
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><base href="/" /></head></html>',
  );
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'assets', 'app-abc.js'), 'x()\n//# sourceMappingURL=app-abc.js.map');
  writeFileSync(
    path.join(dir, 'assets', 'app-abc.js.map'),
    '{"version":3,"sourcesContent":["secret"]}',
  );
  return dir;
}

describe('static files (item 5)', () => {
  it('serves no source maps unless SOURCE_MAPS=1', async () => {
    const distDir = distWithMaps();
    const portal = await startPortal({ distDir });
    expect((await send(portal.origin, { path: '/assets/app-abc.js' })).status).toBe(200);
    const hidden = await send(portal.origin, { path: '/assets/app-abc.js.map' });
    expect(hidden.status).toBe(404);
    expect(hidden.body).not.toContain('secret');
    const withMaps = await startPortal({ distDir, sourceMaps: true });
    const shown = await send(withMaps.origin, { path: '/assets/app-abc.js.map' });
    expect(shown.status).toBe(200);
    expect(shown.body).toContain('sourcesContent');
  });

  it('answers 404 for a missing asset without an extension, not index.html', async () => {
    const portal = await startPortal({ distDir: distWithMaps() });
    for (const missing of ['/assets/missing', '/assets/chunk-abc/', '/assets']) {
      const reply = await send(portal.origin, { path: missing });
      expect(reply.status, missing).toBe(404);
      expect(reply.body, missing).not.toContain('<base');
    }
    expect((await send(portal.origin, { path: '/questions/ptc_1' })).status).toBe(200);
  });
});

describe('the production server’s additions keep the guards (issue 16)', () => {
  it('logs refused requests too, the 413 to Expect: 100-continue included, without headers', async () => {
    const upstream = await recordingUpstream();
    const portal = await startPortal({ upstream: { url: upstream.origin }, maxBodyBytes: 1000 });
    const crossSite = await send(portal.origin, {
      method: 'POST',
      path: `${cancelPath}?token=secret-in-query`,
      headers: { origin: 'http://evil.example', ...json },
      body: '{}',
    });
    expect(crossSite.status).toBe(403);
    const form = await send(portal.origin, {
      method: 'POST',
      path: cancelPath,
      headers: { 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(form.status).toBe(415);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${portal.origin}${cancelPath}`, {
        method: 'POST',
        headers: { host: HOST, ...json, expect: '100-continue', 'content-length': '5000' },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(status).toBe(413);
    await vi.waitFor(() => expect(portal.requests).toHaveLength(3));
    expect(portal.requests.map(({ method, path, status }) => ({ method, path, status }))).toEqual([
      { method: 'POST', path: cancelPath, status: 403 },
      { method: 'POST', path: cancelPath, status: 415 },
      { method: 'POST', path: cancelPath, status: 413 },
    ]);
    expect(JSON.stringify(portal.requests)).not.toMatch(/secret|evil|origin/i);
    expect(upstream.seen).toHaveLength(0);
  });

  it('answers /healthz under any Host (probes call the pod by its address); /api still refuses it', async () => {
    const mock = createMockBackend({ sweepIntervalMs: 0 });
    cleanups.push(() => mock.close());
    const portal = await startPortal({ mock: mock.app, basePath: '/inbox/' });
    for (const path of ['/healthz', '/inbox/healthz']) {
      const probe = await send(portal.origin, { path, headers: { host: '10.1.2.3:8080' } });
      expect(probe.status, path).toBe(200);
      expect(JSON.parse(probe.body)).toEqual({ status: 'ok' });
    }
    const api = await send(portal.origin, {
      path: '/inbox/api/pending_tool_calls',
      headers: { host: '10.1.2.3:8080' },
    });
    expect(api.status).toBe(403);
    // Writes to it are no way around the guards: it takes GET and HEAD only.
    const post = await send(portal.origin, {
      method: 'POST',
      path: '/healthz',
      headers: { host: '10.1.2.3:8080', ...json },
      body: '{}',
    });
    expect(post.status).toBe(404);
  });

  it('compresses what it lets through and nothing gets past the guards or the cap for asking so', async () => {
    const upstream = await recordingUpstream((_seen, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ items: 'x'.repeat(20_000) }));
    });
    const portal = await startPortal({ upstream: { url: upstream.origin }, maxBodyBytes: 1000 });
    const br = { 'accept-encoding': 'br, gzip' };
    const refused = await send(portal.origin, {
      method: 'POST',
      path: cancelPath,
      headers: { ...br, origin: 'http://evil.example', ...json },
      body: '{}',
    });
    expect(refused.status).toBe(403);
    const tooBig = await send(portal.origin, {
      method: 'POST',
      path: cancelPath,
      // A compressed request body is counted as sent: the server never inflates one.
      headers: { ...br, ...json, 'content-encoding': 'gzip' },
      body: 'x'.repeat(5000),
    });
    expect(tooBig.status).toBe(413);
    expect(upstream.seen).toHaveLength(0);
    const list = await send(portal.origin, { path: '/api/pending_tool_calls', headers: br });
    expect(list.status).toBe(200);
    expect(list.headers['content-encoding']).toBe('br');
    expect(list.headers.vary).toMatch(/Accept-Encoding/i);
  });
});

describe('Vertesia and Bilby behind the same server (issue 13)', () => {
  const vertesiaList = '/vertesia/api/v1/pending-asks';

  it('proxies /vertesia/api to VERTESIA_URL with the server’s key, the path kept, cookies dropped', async () => {
    const upstream = await recordingUpstream();
    const portal = await startPortal({
      sources: [
        {
          prefix: 'vertesia',
          name: 'Vertesia',
          upstream: { url: `${upstream.origin}/gateway/`, apiKey: 'vertesia-key' },
        },
      ],
    });
    const reply = await send(portal.origin, {
      path: `${vertesiaList}?status=pending`,
      headers: { cookie: 'session=s', 'x-api-version': '20260803' },
    });
    expect(reply.status).toBe(200);
    expect(upstream.seen).toHaveLength(1);
    expect(upstream.seen[0]?.url).toBe('/gateway/api/v1/pending-asks?status=pending');
    expect(upstream.seen[0]?.headers.authorization).toBe('Bearer vertesia-key');
    expect(upstream.seen[0]?.headers.cookie).toBeUndefined();
    expect(upstream.seen[0]?.headers['x-api-version']).toBe('20260803');
    // No mock behind a real server.
    expect((await send(portal.origin, { path: '/vertesia/__mock' })).status).toBe(404);
  });

  it('applies the Host, cross-site and content-type guards and the body cap to every upstream', async () => {
    const upstream = await recordingUpstream();
    const vertesia = createVertesiaMock({ latencyMs: 0 });
    cleanups.push(vertesia.close);
    const portal = await startPortal({
      maxBodyBytes: 1000,
      sources: [
        { prefix: 'bilby', name: 'Bilby', upstream: { url: upstream.origin, apiKey: 'b-key' } },
        { prefix: 'vertesia', name: 'Vertesia', mock: vertesia.app },
      ],
    });
    const post = '/bilby/api/v1/conversations/c1/tool-outputs';
    const rebound = await send(portal.origin, {
      path: post,
      method: 'POST',
      headers: { ...json, host: 'evil.example:5173' },
      body: '{}',
    });
    expect(rebound.status).toBe(403);
    const crossSite = await send(portal.origin, {
      path: post,
      method: 'POST',
      headers: { ...json, origin: 'https://evil.example' },
      body: '{}',
    });
    expect(crossSite.status).toBe(403);
    const form = await send(portal.origin, {
      path: post,
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(form.status).toBe(415);
    const big = await send(portal.origin, {
      path: post,
      method: 'POST',
      headers: json,
      body: JSON.stringify({ outputs: 'x'.repeat(2000) }),
    });
    expect(big.status).toBe(413);
    expect(upstream.seen).toHaveLength(0);
    // The mock's control surface is guarded the same way.
    const reset = await send(portal.origin, {
      path: '/vertesia/__mock/reset',
      method: 'POST',
      headers: { ...json, 'sec-fetch-site': 'cross-site' },
      body: '{}',
    });
    expect(reset.status).toBe(403);
    expect(portal.log).toEqual([
      `[proxy] POST ${post} → 403 refused`,
      `[proxy] POST ${post} → 403 refused`,
      `[proxy] POST ${post} → 415 refused`,
      `[proxy] POST ${post} → 413 refused`,
      '[proxy] POST /vertesia/__mock/reset → 403 refused',
    ]);
    // What passes the guards reaches the mock with its prefix taken off.
    const list = await send(portal.origin, {
      path: vertesiaList,
      headers: { 'x-api-version': '20260803' },
    });
    expect(list.status).toBe(200);
    expect(JSON.parse(list.body)).toHaveProperty('asks');
  });

  it('names the system when its server cannot be reached, and logs it', async () => {
    const portal = await startPortal({
      sources: [{ prefix: 'bilby', name: 'Bilby', upstream: { url: 'http://127.0.0.1:9' } }],
    });
    const reply = await send(portal.origin, { path: '/bilby/api/v1/conversations?cursor=x' });
    expect(reply.status).toBe(502);
    expect(JSON.parse(reply.body)).toEqual({
      detail: 'The Bilby server could not be reached from the portal server.',
    });
    expect(portal.log).toEqual([
      expect.stringMatching(
        /^\[proxy\] GET \/bilby\/api\/v1\/conversations → 502 unreachable.* \(upstream \d+ ms\)$/,
      ),
    ]);
  });

  it('checks VERTESIA_URL and BILBY_URL like REFLEXIO_URL, naming the variable', () => {
    const parsed = parseUpstreamUrl('https://user:pw@bilby.example/', 'BILBY_URL');
    expect(parsed).toEqual({
      ok: false,
      message:
        'BILBY_URL must not hold a user name or password (https://***@bilby.example/): put the API key in BILBY_API_KEY.',
    });
  });
});
