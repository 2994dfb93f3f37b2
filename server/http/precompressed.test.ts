import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { precompressDir } from '../../scripts/precompress';
import { createPortalApp } from './portal';

const code = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{id:${i},text:"question ${i}"}`).join(',')}];\n`;

async function builtDist(): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'qi-precompressed-'));
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><base href="/" /><script type="module" src="./assets/app-abc123.js"></script></head><body></body></html>',
  );
  writeFileSync(path.join(dir, 'config.json'), `{"apiBaseUrl":"api","pad":"${'x'.repeat(2000)}"}`);
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), code);
  writeFileSync(path.join(dir, 'assets', 'app-abc123.js.map'), `{"pad":"${'m'.repeat(5000)}"}`);
  writeFileSync(path.join(dir, 'assets', 'tiny-1.css'), 'a{color:red}');
  await precompressDir(dir);
  return dir;
}

describe('precompressDir', () => {
  it('writes .br and .gz of code and styles over 1 KB, not of config.json, maps or small files', async () => {
    const dir = await builtDist();
    const assets = path.join(dir, 'assets');
    expect(
      brotliDecompressSync(readFileSync(path.join(assets, 'app-abc123.js.br'))).toString(),
    ).toBe(code);
    expect(gunzipSync(readFileSync(path.join(assets, 'app-abc123.js.gz'))).toString()).toBe(code);
    for (const absent of ['app-abc123.js.map.br', 'tiny-1.css.br', 'tiny-1.css.gz']) {
      expect(() => readFileSync(path.join(assets, absent)), absent).toThrow();
    }
    expect(() => readFileSync(path.join(dir, 'config.json.br'))).toThrow();
  });
});

describe('the portal serves the prebuilt files', () => {
  const asset = (base = '/') => `http://localhost${base}assets/app-abc123.js`;

  it('sends brotli or gzip as negotiated, with the type, length and caching of the asset', async () => {
    const dir = await builtDist();
    const app = createPortalApp({ distDir: dir, basePath: '/inbox/' });
    const br = await app.request(asset('/inbox/'), {
      headers: { 'Accept-Encoding': 'gzip, deflate, br, zstd' },
    });
    expect(br.status).toBe(200);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const brBytes = Buffer.from(await br.arrayBuffer());
    expect(Number(br.headers.get('content-length'))).toBe(brBytes.length);
    expect(brBytes.equals(readFileSync(path.join(dir, 'assets', 'app-abc123.js.br')))).toBe(true);

    const gz = await app.request(asset('/inbox/'), {
      headers: { 'Accept-Encoding': 'gzip;q=1, br;q=0' },
    });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    const gzBytes = Buffer.from(await gz.arrayBuffer());
    expect(Number(gz.headers.get('content-length'))).toBe(gzBytes.length);
    expect(gunzipSync(gzBytes).toString()).toBe(code);
  });

  it('sends the file as is to a client that takes neither, and to a Range request', async () => {
    const dir = await builtDist();
    const app = createPortalApp({ distDir: dir });
    const cases: Record<string, string>[] = [
      {},
      { 'Accept-Encoding': 'identity' },
      { 'Accept-Encoding': 'br', Range: 'bytes=0-9' },
    ];
    for (const headers of cases) {
      const res = await app.request(asset(), { headers });
      expect(res.headers.get('content-encoding')).toBeNull();
      expect(res.headers.get('vary')).toBe('Accept-Encoding');
      const text = await res.text();
      expect(code.startsWith(text)).toBe(true);
    }
  });

  it('answers HEAD with the compressed length and no body', async () => {
    const dir = await builtDist();
    const app = createPortalApp({ distDir: dir });
    const res = await app.request(asset(), {
      method: 'HEAD',
      headers: { 'Accept-Encoding': 'br' },
    });
    expect(res.headers.get('content-encoding')).toBe('br');
    const size = readFileSync(path.join(dir, 'assets', 'app-abc123.js.br')).length;
    expect(res.headers.get('content-length')).toBe(String(size));
    expect(await res.text()).toBe('');
  });

  it('compresses index.html and config.json on the fly (they are rewritten or edited per deployment)', async () => {
    const dir = await builtDist();
    const app = createPortalApp({ distDir: dir });
    const config = await app.request('http://localhost/config.json', {
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(config.headers.get('content-encoding')).toBe('gzip');
    expect(
      JSON.parse(gunzipSync(Buffer.from(await config.arrayBuffer())).toString()).apiBaseUrl,
    ).toBe('api');
  });

  it('never serves a file outside the build', async () => {
    const dir = await builtDist();
    const app = createPortalApp({ distDir: path.join(dir, 'assets') });
    writeFileSync(`${dir}/secret.js`, 'x'.repeat(3000));
    await precompressDir(dir);
    const res = await app.request('http://localhost/..%2fsecret.js', {
      headers: { 'Accept-Encoding': 'br' },
    });
    expect(await res.text()).not.toContain('xxx');
  });
});
