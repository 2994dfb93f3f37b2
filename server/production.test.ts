// The compiled production server (`npm run build` → dist-server/start.js, run by `npm run serve`)
// as a real process: plain node, with a loader hook that fails on any import of Vite, tsx or
// esbuild, so the test fails if production start-up reaches one of them.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildServer } from '../scripts/build-server';
import { precompressDir } from '../scripts/precompress';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DENY_HOOKS = `export async function resolve(specifier, context, next) {
  if (/^(vite|tsx|esbuild|rolldown)(\\/|$)/.test(specifier)) {
    throw new Error('the production server imported ' + specifier);
  }
  return next(specifier, context);
}
`;

let dir: string;
let bundle: string;

beforeAll(async () => {
  // A stand-in for the repository after `npm run build`: dist/, dist-server/, node_modules.
  dir = mkdtempSync(path.join(os.tmpdir(), 'qi-production-'));
  writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}\n');
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  mkdirSync(path.join(dir, 'dist', 'assets'), { recursive: true });
  writeFileSync(
    path.join(dir, 'dist', 'index.html'),
    '<!doctype html><html><head><base href="/" /><script type="module" src="./assets/app-1.js"></script></head><body>Questions Inbox</body></html>',
  );
  writeFileSync(path.join(dir, 'dist', 'config.json'), '{"apiBaseUrl":"api"}');
  writeFileSync(
    path.join(dir, 'dist', 'assets', 'app-1.js'),
    `console.log("${'x'.repeat(4000)}");`,
  );
  await precompressDir(path.join(dir, 'dist'));
  bundle = path.join(dir, 'dist-server', 'start.js');
  await buildServer(bundle);
  writeFileSync(path.join(dir, 'deny-hooks.mjs'), DENY_HOOKS);
  writeFileSync(
    path.join(dir, 'deny.mjs'),
    "import { register } from 'node:module';\nregister('./deny-hooks.mjs', import.meta.url);\n",
  );
}, 60_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface Running {
  child: ChildProcess;
  origin: string;
  stdout: () => string;
  exited: Promise<{ code: number | null; at: number }>;
}

/**
 * `unshare` that makes the server process 1 of a PID namespace of its own, as in a container
 * (root only), or null where that cannot be done here.
 */
const NAMESPACE = ['unshare', '--pid', '--fork', '--mount-proc'];
const namespaces =
  process.platform === 'linux' &&
  spawnSync(NAMESPACE[0] as string, [...NAMESPACE.slice(1), 'true']).status === 0;

async function startBuilt(
  extraEnv: Record<string, string> = {},
  options: { inNamespace?: boolean } = {},
): Promise<Running> {
  const port = await freePort();
  // One trail folder per server: a folder serves one process (the second is refused).
  const dataDir = path.join(dir, `data-${port}`);
  let out = '';
  const command = [
    process.execPath,
    '--import',
    path.join(dir, 'deny.mjs'),
    bundle,
    '--production',
  ];
  const [program, ...args] = options.inNamespace ? [...NAMESPACE, ...command] : command;
  const child = spawn(program as string, args, {
    cwd: dir,
    // No NODE_OPTIONS (no tsx loader) and no NODE_ENV from Vitest.
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      MOCK_SIMULATOR_SECONDS: '0',
      MOCK_LATENCY_MS: '0',
      DATA_DIR: dataDir,
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    out += chunk;
  });
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.on('exit', (code) => resolve({ code, at: Date.now() })),
  );
  const origin = `http://127.0.0.1:${port}`;
  // A new trail folder is made at the first start (PGlite's initdb: ~8 s on a quiet machine).
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${out}`);
    const ok = await fetch(`${origin}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`the server did not answer /healthz:\n${out}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, origin, stdout: () => out, exited };
}

/** The server's own process under `unshare --fork` (its only child), and its id in its namespace. */
function serverUnder(unshare: ChildProcess): { pid: number; inNamespace: number } {
  const children = readFileSync(`/proc/${unshare.pid}/task/${unshare.pid}/children`, 'utf8');
  const pid = Number(children.trim().split(/\s+/)[0]);
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const ids = /^NSpid:\s+(.+)$/m.exec(status)?.[1]?.trim().split(/\s+/) ?? [];
  return { pid, inNamespace: Number(ids.at(-1)) };
}

describe('the compiled production server', () => {
  it('has no static import of Vite, tsx or esbuild, and the deny hook does stop them', () => {
    const code = readFileSync(bundle, 'utf8');
    expect(code).not.toMatch(/^import[^;]*from\s*["'](vite|tsx|esbuild)["']/m);
    const probe = spawnSync(
      process.execPath,
      ['--import', path.join(dir, 'deny.mjs'), '--input-type=module', '-e', "await import('vite')"],
      { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } },
    );
    expect(probe.status).not.toBe(0);
    expect(probe.stderr).toContain('the production server imported vite');
  });

  it('serves the portal, compressed assets, /healthz and JSON log lines', {
    timeout: 120_000,
  }, async () => {
    const server = await startBuilt();
    try {
      expect(await (await fetch(`${server.origin}/healthz`)).json()).toEqual({ status: 'ok' });
      const index = await fetch(`${server.origin}/questions`);
      expect(await index.text()).toContain('Questions Inbox');
      const asset = await fetch(`${server.origin}/assets/app-1.js`, {
        headers: { 'Accept-Encoding': 'br' },
      });
      expect(asset.headers.get('content-encoding')).toBe('br');
      await fetch(`${server.origin}/api/pending_tool_calls?token=secret-token`, {
        headers: { Authorization: 'Bearer secret-key' },
      });
      const lines = () =>
        server
          .stdout()
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Record<string, unknown>);
      const deadline = Date.now() + 5_000;
      while (!lines().some((line) => line.path === '/api/pending_tool_calls')) {
        if (Date.now() > deadline)
          throw new Error(`no log line for the API call:\n${server.stdout()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(lines()).toContainEqual(
        expect.objectContaining({ method: 'GET', path: '/assets/app-1.js', status: 200 }),
      );
      expect(server.stdout()).not.toMatch(/secret|Bearer/);
      expect(server.stdout()).not.toContain('the production server imported');
      // Served without an SSO proxy's header: said once, at start.
      expect(server.stdout().match(/^.*Warning: REVIEWER_HEADER is not set.*$/gm)).toEqual([
        expect.stringMatching(
          /anyone who reaches the portal can act under any name, and the trail marks such entries as self-named/,
        ),
      ]);
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it('on SIGTERM finishes the request in flight, refuses new connections, closes idle ones and exits 0 within 10 s', {
    timeout: 120_000,
  }, async () => {
    const server = await startBuilt();
    // Whatever fails below, the server does not outlive the test.
    onTestFinished(() => {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    });
    const tenant = { 'x-mock-tenant': 'shutdown' };
    const fault = await fetch(`${server.origin}/__mock/faults`, {
      method: 'POST',
      headers: { ...tenant, 'content-type': 'application/json' },
      body: JSON.stringify({
        kind: 'latency',
        latencyMs: 3000,
        match: { path: '/api/pending_tool_calls' },
      }),
    });
    expect(fault.status).toBeLessThan(300);

    // An idle keep-alive connection, as a browser or a load balancer would hold.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    let idleClosedAt = 0;
    await new Promise<void>((resolve, reject) => {
      request(`${server.origin}/healthz`, { agent }, (res) => {
        res.socket.once('close', () => {
          idleClosedAt = Date.now();
        });
        res.resume();
        res.on('end', () => resolve());
      })
        .on('error', reject)
        .end();
    });

    let inFlightDoneAt = 0;
    const inFlight = fetch(`${server.origin}/api/pending_tool_calls`, { headers: tenant }).then(
      async (res) => {
        const body = (await res.json()) as unknown;
        inFlightDoneAt = Date.now();
        return { status: res.status, body };
      },
    );
    // In flight once the mock has taken the fault.
    const deadline = Date.now() + 10_000;
    for (;;) {
      const state = (await (
        await fetch(`${server.origin}/__mock/state`, { headers: tenant })
      ).json()) as {
        faults: { remaining: number }[];
      };
      if (state.faults.every((f) => f.remaining === 0)) break;
      if (Date.now() > deadline) throw new Error('the slow request never reached the mock');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    let refusedAt = 0;
    while (!refusedAt) {
      const error = await fetch(`${server.origin}/healthz`, {
        headers: { connection: 'close' },
      }).then(
        () => null,
        (e: Error & { cause?: { code?: string } }) => e,
      );
      if (error?.cause?.code === 'ECONNREFUSED') refusedAt = Date.now();
      else await new Promise((resolve) => setTimeout(resolve, 20));
      if (Date.now() - signalledAt > 10_000) throw new Error('new connections were never refused');
    }

    const done = await inFlight;
    expect(done.status).toBe(200);
    expect(done.body).toBeTypeOf('object');
    expect(refusedAt).toBeLessThan(inFlightDoneAt);
    expect(idleClosedAt).toBeGreaterThan(0);
    expect(idleClosedAt).toBeLessThan(inFlightDoneAt);
    const { code, at } = await server.exited;
    expect(code).toBe(0);
    expect(at - signalledAt).toBeLessThan(10_000);
    expect(server.stdout()).toContain('"event":"stopped"');
    agent.destroy();
  });

  it('keeps every answer a system accepted in the trail through a SIGTERM mid-write, and opens the trail again', {
    timeout: 180_000,
  }, async () => {
    const dataDir = path.join(dir, 'data-sigterm');
    const tenant = { 'x-mock-tenant': 'sigterm' };
    const first = await startBuilt({ DATA_DIR: dataDir, MOCK_LATENCY_MS: '400' });
    onTestFinished(() => {
      if (first.child.exitCode === null) first.child.kill('SIGKILL');
    });
    const ids: string[] = [];
    for (let index = 0; index < 30; index += 1) {
      const asked = await fetch(`${first.origin}/__mock/questions`, {
        method: 'POST',
        headers: { ...tenant, 'content-type': 'application/json' },
        body: JSON.stringify({ question: `Restart worker ${index}?`, expires_in_seconds: 3600 }),
      });
      ids.push(((await asked.json()) as { call: { id: string } }).call.id);
    }
    // Thirty answers at once; the signal comes once the first is back, the rest in flight (each
    // waits 400 ms at the mock) or arriving while the server stops.
    const outcomes = ids.map((id) =>
      fetch(`${first.origin}/api/pending_tool_calls/${id}/resolve`, {
        method: 'POST',
        headers: {
          ...tenant,
          'content-type': 'application/json',
          origin: first.origin,
          'sec-fetch-site': 'same-origin',
        },
        body: JSON.stringify({ result: { answer: `yes ${id}` } }),
      }).then(
        (response) => ({ id, status: response.status }),
        () => ({ id, status: 0 }),
      ),
    );
    await Promise.race(outcomes);
    first.child.kill('SIGTERM');
    const answered = await Promise.all(outcomes);
    expect((await first.exited).code).toBe(0);
    expect(first.stdout()).not.toContain('could not record');
    const accepted = answered.filter((outcome) => outcome.status === 200).map((o) => o.id);
    expect(accepted.length).toBeGreaterThan(1);

    // The same folder, a new process: it opens, and every accepted answer is there with its
    // outcome (attempt and outcome are one entry once the outcome is written).
    const second = await startBuilt({ DATA_DIR: dataDir });
    try {
      const page = (await (
        await fetch(`${second.origin}/portal-api/activity?limit=200`, {
          headers: { 'sec-fetch-site': 'same-origin' },
        })
      ).json()) as { entries: { questionId: string; status: number | null; answer: string }[] };
      for (const id of accepted) {
        expect(page.entries).toContainEqual(
          expect.objectContaining({
            questionId: id,
            status: 200,
            answer: expect.stringContaining(`yes ${id}`),
          }),
        );
      }
      // Nothing was recorded twice.
      const recorded = page.entries.map((entry) => entry.questionId);
      expect(new Set(recorded).size).toBe(recorded.length);
    } finally {
      second.child.kill('SIGKILL');
    }
  });

  // A container's server is process 1 at every start. The lock of earlier versions held a process
  // id: after kill -9 (or the OOM killer) it said "1", the restarted server was 1 again, and it
  // refused to start ("Another portal server (process 1) is using DATA_DIR").
  it.skipIf(!namespaces)(
    'starts again on its DATA_DIR after its process 1 was killed -9, as a container restarts',
    {
      timeout: 300_000,
    },
    async () => {
      const dataDir = path.join(dir, 'data-pid1');
      const first = await startBuilt({ DATA_DIR: dataDir }, { inNamespace: true });
      onTestFinished(() => {
        if (first.child.exitCode === null) first.child.kill('SIGKILL');
      });
      const killed = serverUnder(first.child);
      expect(killed.inNamespace).toBe(1);
      process.kill(killed.pid, 'SIGKILL');
      await first.exited;

      const second = await startBuilt({ DATA_DIR: dataDir }, { inNamespace: true });
      try {
        expect(serverUnder(second.child).inNamespace).toBe(1);
        expect(await (await fetch(`${second.origin}/healthz`)).json()).toEqual({ status: 'ok' });
        expect(second.stdout()).not.toContain('Cannot start');
      } finally {
        second.child.kill('SIGKILL');
      }
    },
  );
});
