import { brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createMockBackend } from '../../mock/app';
import { compress, negotiateEncoding } from './compress';
import { createPortalApp } from './portal';

describe('negotiateEncoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['gzip;q=1, br;q=0', 'gzip'],
    ['BR', 'br'],
    ['*', 'br'],
    ['*;q=0.1, br;q=0', 'gzip'],
    ['identity', undefined],
    ['deflate', undefined],
    ['gzip;q=0, br;q=0', undefined],
    ['', undefined],
    [null, undefined],
  ])('%s → %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

const big = { items: Array.from({ length: 200 }, (_, i) => ({ id: i, text: `question ${i}` })) };

function appWith(handler: (c: import('hono').Context) => Response | Promise<Response>) {
  const app = new Hono();
  app.use('*', compress());
  app.get('*', handler);
  return app;
}

async function bodyOf(res: Response): Promise<Buffer> {
  return Buffer.from(await res.arrayBuffer());
}

describe('compress middleware', () => {
  it('compresses the mock’s JSON with brotli or gzip, as negotiated, and the bytes decode back', async () => {
    const mock = createMockBackend({ seed: 'demo', simulatorIntervalMs: 0 });
    const portal = createPortalApp({ mock: mock.app });
    try {
      const url = 'http://localhost/api/pending_tool_calls?limit=100';
      const plain = await portal.request(url);
      const plainText = await plain.text();
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(plain.headers.get('vary')).toMatch(/Accept-Encoding/);
      expect(plainText.length).toBeGreaterThan(1024);

      const br = await portal.request(url, { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
      expect(br.headers.get('content-encoding')).toBe('br');
      expect(br.headers.get('content-length')).toBeNull();
      expect(br.headers.get('vary')).toMatch(/Accept-Encoding/);
      const brBytes = await bodyOf(br);
      expect(brBytes.length).toBeLessThan(plainText.length / 3);
      expect(brotliDecompressSync(brBytes).toString()).toBe(plainText);

      const gz = await portal.request(url, { headers: { 'Accept-Encoding': 'br;q=0.1, gzip' } });
      expect(gz.headers.get('content-encoding')).toBe('gzip');
      expect(gunzipSync(await bodyOf(gz)).toString()).toBe(plainText);
    } finally {
      mock.close();
    }
  });

  it('leaves small bodies as they are, but still says they vary', async () => {
    const app = appWith((c) => c.json({ ok: true }));
    const res = await app.request('/', { headers: { 'Accept-Encoding': 'br' } });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('content-length')).toBe('11');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
  });

  it('skips event streams, images, no-transform and bodies already encoded', async () => {
    const text = 'x'.repeat(5000);
    const cases: Record<string, HeadersInit> = {
      '/events': { 'Content-Type': 'text/event-stream' },
      '/png': { 'Content-Type': 'image/png' },
      '/nt': { 'Content-Type': 'application/json', 'Cache-Control': 'public, no-transform' },
      '/enc': { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
    };
    const app = appWith((c) => new Response(text, { headers: cases[c.req.path] ?? {} }));
    for (const [route, headers] of Object.entries(cases)) {
      const res = await app.request(route, { headers: { 'Accept-Encoding': 'br, gzip' } });
      const expected = new Headers(headers).get('content-encoding');
      expect(res.headers.get('content-encoding'), route).toBe(expected);
      expect((await res.text()).length, route).toBe(text.length);
    }
  });

  it('streams: the response starts before the body has ended, and carries all of it', async () => {
    let finish: () => void = () => {};
    const app = appWith(
      () =>
        new Response(
          new ReadableStream<Uint8Array>({
            async start(controller) {
              controller.enqueue(new TextEncoder().encode(`[${'"chunk",'.repeat(300)}`));
              await new Promise<void>((resolve) => {
                finish = resolve;
              });
              controller.enqueue(new TextEncoder().encode('"end"]'));
              controller.close();
            },
          }),
          { headers: { 'Content-Type': 'application/json' } },
        ),
    );
    // Resolves while the source is still open: nothing waits for the whole body.
    const res = await app.request('/', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    finish();
    const json = JSON.parse(gunzipSync(await bodyOf(res)).toString()) as string[];
    expect(json).toHaveLength(301);
    expect(json.at(-1)).toBe('end');
  });

  it('weakens a strong ETag when it changes the bytes, and keeps other Vary values', async () => {
    const app = appWith(
      () =>
        new Response(JSON.stringify(big), {
          headers: { 'Content-Type': 'application/json', ETag: '"v1"', Vary: 'Cookie' },
        }),
    );
    const res = await app.request('/', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(res.headers.get('etag')).toBe('W/"v1"');
    expect(res.headers.get('vary')).toBe('Cookie, Accept-Encoding');
    expect(JSON.parse(gunzipSync(await bodyOf(res)).toString())).toEqual(big);
  });

  it('answers HEAD without a body or an encoding', async () => {
    const app = new Hono();
    app.use('*', compress());
    app.on('HEAD', '/', (c) => c.body(null, 200, { 'Content-Type': 'application/json' }));
    const res = await app.request('/', { method: 'HEAD', headers: { 'Accept-Encoding': 'br' } });
    expect(res.headers.get('content-encoding')).toBeNull();
  });
});

describe('a page sent in pieces', () => {
  it.each(['br', 'gzip'] as const)(
    '%s: its first piece comes out compressed before the next is made',
    async (encoding) => {
      let finish = () => {};
      const later = new Promise<void>((resolve) => {
        finish = resolve;
      });
      const head = `<!doctype html><html><head>${'<meta name="x" content="y" />'.repeat(60)}`;
      const app = appWith((c) =>
        c.body(
          new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(new TextEncoder().encode(head));
            },
            async pull(controller) {
              await later;
              controller.enqueue(new TextEncoder().encode('</head><body>rows</body></html>'));
              controller.close();
            },
          }),
          200,
          { 'Content-Type': 'text/html; charset=UTF-8' },
        ),
      );
      const res = await app.request('/', { headers: { 'Accept-Encoding': encoding } });
      expect(res.headers.get('Content-Encoding')).toBe(encoding);
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const first = await reader.read();
      const inflate = encoding === 'br' ? brotliDecompressSync : gunzipSync;
      // A flushed piece of the stream decodes on its own (finishFlush: what has come so far).
      const options = {
        finishFlush: encoding === 'br' ? constants.BROTLI_OPERATION_FLUSH : constants.Z_SYNC_FLUSH,
      };
      expect(inflate(Buffer.from(first.value as Uint8Array), options).toString()).toBe(head);
      finish();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {}
    },
  );
});
