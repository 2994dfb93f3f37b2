// What nginx answers with deploy/nginx/*.conf, request by request (no browser).
import { contentSecurityPolicy } from '../../server/http/portal';
import { expect, PREFIX, STRIPPED_PREFIX, test } from './fixtures';
import { FRAME_ANCESTORS } from './harness';

const CSP = contentSecurityPolicy(FRAME_ANCESTORS);

test.describe('signed out', () => {
  test('pages go to sign in with the whole address kept, the API answers 401', async ({
    harness,
    request,
  }) => {
    const deepLink = `${PREFIX}questions/ptc_deep?status=pending&sort=oldest`;
    const page = await request.get(`${harness.origin}${deepLink}`, { maxRedirects: 0 });
    expect(page.status()).toBe(302);
    expect(page.headers().location).toBe(
      `${PREFIX}oauth2/sign_in?rd=${encodeURIComponent(deepLink)}`,
    );

    for (const path of ['config.json', harness.assets[0] as string, 'index.html']) {
      const response = await request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(302);
    }

    const api = await request.get('api/pending_tool_calls', { maxRedirects: 0 });
    expect(api.status()).toBe(401);
  });
});

test.describe('signed in', () => {
  test.beforeEach(async ({ harness: _harness, request }) => {
    const response = await request.post('oauth2/sign_in', {
      form: { username: 'http-checker', rd: PREFIX },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(302);
  });

  test('every route of the app is index.html with the public prefix as <base href>, never cached', async ({
    request,
  }) => {
    for (const path of ['', 'questions', 'questions/ptc_deep?status=pending', 'index.html']) {
      const response = await request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(200);
      const headers = response.headers();
      expect(headers['content-type'], path).toMatch(/^text\/html/);
      const html = await response.text();
      expect(html, path).toContain(`<base href="${PREFIX}" />`);
      expect(html, path).not.toContain('<base href="/" />');
      expect(headers['cache-control'], path).toBe('no-store');
      expect(headers['content-security-policy'], path).toBe(CSP);
      expect(headers['x-content-type-options'], path).toBe('nosniff');
      expect(headers['referrer-policy'], path).toBe('same-origin');
    }

    const bare = await request.get(PREFIX.replace(/\/$/, ''), { maxRedirects: 0 });
    expect(bare.status()).toBe(301);
    expect(bare.headers().location).toBe(PREFIX);
  });

  test('assets are cached for a year and compressed; config.json is not cached; a missing file is a 404', async ({
    harness,
    request,
  }) => {
    for (const asset of harness.assets) {
      const response = await request.get(asset, { headers: { 'accept-encoding': 'gzip' } });
      expect(response.status(), asset).toBe(200);
      const headers = response.headers();
      expect(headers['cache-control'], asset).toBe('public, max-age=31536000, immutable');
      expect(headers['content-type'], asset).toMatch(/^(application\/javascript|text\/css)/);
      expect(headers['x-content-type-options'], asset).toBe('nosniff');
      if ((await response.body()).length > 1024) {
        expect(headers['content-encoding'], asset).toBe('gzip');
      }
    }

    const config = await request.get('config.json');
    expect(config.status()).toBe(200);
    expect(config.headers()['content-type']).toMatch(/^application\/json/);
    expect(config.headers()['cache-control']).toBe('no-store');
    expect(await config.json()).toMatchObject({ apiBaseUrl: 'api' });

    const missing = await request.get('assets/index-DoesNotExist.js');
    expect(missing.status()).toBe(404);
    const outside = await request.get('/elsewhere/', { maxRedirects: 0 });
    expect(outside.status()).toBe(404);
  });

  test("the API reaches Reflexio with the proxy's key and the reviewer's User-Agent", async ({
    harness,
    request,
  }) => {
    // The key lives only in nginx: the mock refuses a request without it.
    const direct = await request.get(`${harness.mockOrigin}/api/pending_tool_calls`);
    expect(direct.status()).toBe(401);

    const browserAgent =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140 Safari/537.36';
    const proxied = await request.get('api/pending_tool_calls?status=pending', {
      // Whatever the browser sends as Authorization is replaced by the proxy's key.
      headers: { 'user-agent': browserAgent, authorization: 'Bearer not-the-key' },
    });
    expect(proxied.status(), await proxied.text()).toBe(200);
    expect(proxied.headers()['cache-control']).toBe('no-store');
    const body = (await proxied.json()) as { pending_tool_calls: unknown[] };
    expect(body.pending_tool_calls.length).toBeGreaterThan(0);

    // Reflexio refuses clients that do not look like a browser; nginx passes the real agent on.
    const script = await request.get('api/pending_tool_calls', {
      headers: { 'user-agent': 'curl/8.5.0' },
    });
    expect(script.status()).toBe(403);
    expect(await script.json()).toEqual({ detail: 'Forbidden: Suspicious user agent' });
  });

  test('cross-site writes and form content types are refused before they reach Reflexio', async ({
    harness,
    request,
  }) => {
    const cancel = 'api/pending_tool_calls/ptc_not_there/cancel';
    const agent = { 'user-agent': 'Mozilla/5.0 (test)' };
    // What Chromium sends for a form auto-submitted from another site on plain HTTP.
    const form = await request.post(cancel, {
      headers: { ...agent, origin: 'http://evil.example', 'content-type': 'text/plain' },
      data: '{}',
    });
    expect(form.status()).toBe(403);
    expect((await form.json()).detail).toMatch(/^Cross-site request refused/);
    const crossSite = await request.post(cancel, {
      headers: { ...agent, 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
      data: '{}',
    });
    expect(crossSite.status()).toBe(403);
    const ownForm = await request.post(cancel, {
      headers: {
        ...agent,
        origin: harness.origin,
        'content-type': 'application/x-www-form-urlencoded',
      },
      data: 'a=1',
    });
    expect(ownForm.status()).toBe(415);
    expect((await ownForm.json()).detail).toMatch(/application\/json/);

    // The portal's own pages get through to Reflexio (which knows no such question).
    const ownPages: Record<string, string>[] = [
      { origin: harness.origin },
      { 'sec-fetch-site': 'same-origin' },
      {},
    ];
    for (const headers of ownPages) {
      const own = await request.post(cancel, {
        headers: { ...agent, ...headers, 'content-type': 'application/json' },
        data: '{}',
      });
      expect(own.status(), JSON.stringify(headers)).toBe(404);
    }

    // Behind the gateway, the public host is X-Forwarded-Host.
    const inner = `${harness.innerOrigin}/${cancel}`;
    const viaGateway = await request.post(inner, {
      headers: {
        ...agent,
        origin: 'https://tools.example.com',
        'x-forwarded-host': 'tools.example.com',
        'content-type': 'application/json',
      },
      data: '{}',
    });
    expect(viaGateway.status()).toBe(404);
    const innerCrossSite = await request.post(inner, {
      headers: { ...agent, origin: 'http://evil.example', 'content-type': 'application/json' },
      data: '{}',
    });
    expect(innerCrossSite.status()).toBe(403);
    const innerForm = await request.post(inner, {
      headers: { ...agent, 'content-type': 'text/plain;charset=UTF-8' },
      data: '{}',
    });
    expect(innerForm.status()).toBe(415);
  });

  test('a request body over 1 MB is refused by the proxy', async ({ request }) => {
    const response = await request.post('api/pending_tool_calls/ptc_any/resolve', {
      headers: { 'content-type': 'application/json' },
      data: JSON.stringify({ result: { answer: 'x'.repeat(1_200_000) } }),
    });
    expect(response.status()).toBe(413);
    expect(response.headers()['content-type']).toMatch(/^text\/html/);
  });
});

test.describe('behind a gateway that strips the prefix', () => {
  test('index.html carries the public prefix the gateway names; the API and assets work', async ({
    harness,
    request,
  }) => {
    const deep = await request.get(`${harness.strippedOrigin}${STRIPPED_PREFIX}questions/ptc_1`);
    expect(deep.status()).toBe(200);
    expect(deep.headers()['content-security-policy']).toBe(CSP);
    expect(deep.headers()['cache-control']).toBe('no-store');
    expect(await deep.text()).toContain(`<base href="${STRIPPED_PREFIX}" />`);

    const asset = await request.get(
      `${harness.strippedOrigin}${STRIPPED_PREFIX}${harness.assets[0]}`,
    );
    expect(asset.status()).toBe(200);
    expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');

    const api = await request.get(
      `${harness.strippedOrigin}${STRIPPED_PREFIX}api/pending_tool_calls`,
      { headers: { 'user-agent': 'Mozilla/5.0 (test)' } },
    );
    expect(api.status(), await api.text()).toBe(200);

    // Only a plain path is taken from X-Forwarded-Prefix: anything else falls back to "/".
    const forged = await request.get(`${harness.innerOrigin}/questions`, {
      headers: { 'x-forwarded-prefix': '/x"><script src="//evil.example/x.js"></script>' },
    });
    const html = await forged.text();
    expect(html).toContain('<base href="/" />');
    expect(html).not.toContain('evil.example');
  });
});
