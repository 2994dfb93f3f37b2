// Bytes on the wire of the first page's JS and CSS: the portal's own server (as `npm start` and
// `npm run serve` compose it) next to nginx with the documented configuration's compression
// settings (deploy/nginx/questions-inbox.conf), both asked as Chromium asks
// (`Accept-Encoding: gzip, deflate, br, zstd`). Plain HTTP, no browser: the body bytes as
// received, before any decoding.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { createMockBackend } from '../mock/app.ts';
import { createPortalApp } from '../server/http/portal.ts';
import { initialAssetSizes } from './bundle-size.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CHROMIUM_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

export interface WireSide {
  js: number;
  css: number;
  /** Content-Encoding of each initial asset, by path. */
  encodings: Record<string, string>;
}

export interface WireComparison {
  files: string[];
  portal: WireSide;
  nginx: WireSide;
}

/** The gzip directives of the documented nginx configuration, as written there. */
export function documentedCompression(): string[] {
  const conf = readFileSync(path.join(root, 'deploy', 'nginx', 'questions-inbox.conf'), 'utf8');
  return [...conf.matchAll(/^\s*(gzip[a-z_]*\s[^;]*;)/gm)].map((m) => m[1] as string);
}

function fetchRaw(url: string, acceptEncoding: string) {
  return new Promise<{ bytes: number; encoding: string }>((resolve, reject) => {
    request(url, { headers: { 'Accept-Encoding': acceptEncoding } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`${url}: HTTP ${res.statusCode}`));
        else resolve({ bytes, encoding: String(res.headers['content-encoding'] ?? 'identity') });
      });
    })
      .on('error', reject)
      .end();
  });
}

async function side(origin: string, files: string[], acceptEncoding: string): Promise<WireSide> {
  const result: WireSide = { js: 0, css: 0, encodings: {} };
  for (const file of files) {
    const { bytes, encoding } = await fetchRaw(`${origin}/${file}`, acceptEncoding);
    result.encodings[file] = encoding;
    if (file.endsWith('.css')) result.css += bytes;
    else result.js += bytes;
  }
  return result;
}

async function startPortal(distDir: string) {
  const mock = createMockBackend({ seed: 'empty', simulatorIntervalMs: 0 });
  const server = createServer(
    getRequestListener(createPortalApp({ distDir, mock: mock.app }).fetch),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      mock.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function startNginx(nginxPath: string, distDir: string) {
  const work = mkdtempSync(path.join(os.tmpdir(), 'qi-wire-nginx-'));
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as AddressInfo;
      probe.close(() => resolve(free));
    });
  });
  mkdirSync(path.join(work, 'temp'));
  const temp = (name: string) => path.join(work, 'temp', name);
  writeFileSync(
    path.join(work, 'nginx.conf'),
    `worker_processes 1;
events { worker_connections 64; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log off;
    client_body_temp_path ${temp('client_body')};
    proxy_temp_path ${temp('proxy')};
    fastcgi_temp_path ${temp('fastcgi')};
    uwsgi_temp_path ${temp('uwsgi')};
    scgi_temp_path ${temp('scgi')};
    server {
        listen 127.0.0.1:${port};
        root ${distDir};
        ${documentedCompression().join('\n        ')}
    }
}
`,
  );
  const nginx = spawn(
    nginxPath,
    [
      '-p',
      work,
      '-c',
      path.join(work, 'nginx.conf'),
      '-g',
      `daemon off; pid ${work}/nginx.pid; error_log ${work}/error.log warn;`,
    ],
    { stdio: 'ignore' },
  );
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  while (
    !(await fetch(`${origin}/index.html`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (nginx.exitCode !== null || Date.now() > deadline) {
      nginx.kill('SIGKILL');
      throw new Error(`nginx did not start (exit ${nginx.exitCode})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    origin,
    stop: async () => {
      const exited = new Promise((resolve) => nginx.once('exit', resolve));
      nginx.kill('SIGTERM');
      await exited;
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** The first page's JS and CSS on the wire from both servers, for the build in `distDir`. */
export async function measureWire(distDir: string, nginxPath: string): Promise<WireComparison> {
  const assets = await initialAssetSizes(distDir);
  const files = [...assets.js, ...assets.css].map((asset) => asset.file);
  // nginx's workers run as an unprivileged user: a mkdtemp folder (0700) would hide the build.
  chmodSync(distDir, 0o755);
  const portal = await startPortal(distDir);
  try {
    const nginx = await startNginx(nginxPath, path.resolve(distDir));
    try {
      return {
        files,
        portal: await side(portal.origin, files, CHROMIUM_ACCEPT_ENCODING),
        nginx: await side(nginx.origin, files, CHROMIUM_ACCEPT_ENCODING),
      };
    } finally {
      await nginx.stop();
    }
  } finally {
    await portal.stop();
  }
}

export function describeWire(wire: WireComparison): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const encodings = (s: WireSide) => [...new Set(Object.values(s.encodings))].join('/');
  const ratio = (a: number, b: number) => `${((a / b) * 100).toFixed(0)} %`;
  return [
    `  initial JS:  portal ${kb(wire.portal.js)} (${encodings(wire.portal)}), nginx ${kb(wire.nginx.js)} (${encodings(wire.nginx)}): ${ratio(wire.portal.js, wire.nginx.js)} of nginx`,
    `  initial CSS: portal ${kb(wire.portal.css)}, nginx ${kb(wire.nginx.css)}: ${ratio(wire.portal.css, wire.nginx.css)} of nginx`,
  ].join('\n');
}
