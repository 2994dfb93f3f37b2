// Memory (RSS) of the compiled production server (dist-server/start.js, after `npm run build`):
// at idle, at its peak under a bounded load on loopback, and at idle again. No dependencies: a
// fixed number of concurrent keep-alive clients for a fixed time, each asking for the first page
// as a browser does (index.html, the initial JS and CSS with brotli, config.json, the list).
//
//   node --import tsx scripts/serve-memory.ts [--clients 50] [--seconds 20] [--port 5173]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '20' },
    // A port of your own on a shared machine; a free one otherwise.
    port: { type: 'string' },
  },
});
const clients = Number(values.clients);
const seconds = Number(values.seconds);

const rssOf = (pid: number) => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : Number.NaN;
};
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const port = values.port
  ? Number(values.port)
  : await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
const child = spawn(
  process.execPath,
  [path.join(root, 'dist-server', 'start.js'), '--production'],
  {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      MOCK_LATENCY_MS: '0',
      MOCK_SIMULATOR_SECONDS: '0',
    },
    stdio: 'ignore',
  },
);
const origin = `http://127.0.0.1:${port}`;
try {
  while (
    !(await fetch(`${origin}/healthz`).then(
      (r) => r.ok,
      () => false,
    ))
  )
    await sleep(100);
  const html = await (await fetch(`${origin}/`)).text();
  const assets = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+\.(?:js|css))"/g)].map(
    (m) => `/${m[1]}`,
  );
  const paths = ['/', ...assets, '/config.json', '/api/pending_tool_calls?limit=100'];

  await sleep(3000);
  const idle = rssOf(child.pid as number);

  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const get = (p: string) =>
    new Promise<number>((resolve, reject) => {
      request(
        `${origin}${p}`,
        {
          agent,
          headers: { 'Accept-Encoding': 'gzip, deflate, br, zstd', 'user-agent': 'Mozilla/5.0' },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      )
        .on('error', reject)
        .end();
    });
  let peak = idle;
  let requests = 0;
  let failures = 0;
  const until = Date.now() + seconds * 1000;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(child.pid as number));
  }, 100);
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < until) {
        for (const p of paths) {
          const status = await get(p);
          requests += 1;
          if (status !== 200) failures += 1;
        }
      }
    }),
  );
  clearInterval(sampler);
  agent.destroy();
  await sleep(5000);
  const after = rssOf(child.pid as number);
  console.log(
    [
      `RSS at idle: ${mb(idle)}`,
      `RSS peak under load (${clients} clients, ${seconds} s, ${requests} requests, ${Math.round(requests / seconds)}/s, ${failures} not 200): ${mb(peak)}`,
      `RSS 5 s after the load: ${mb(after)}`,
    ].join('\n'),
  );
} finally {
  child.kill('SIGTERM');
}
