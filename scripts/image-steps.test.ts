// The container image's steps without a container engine (none runs on CI here): reads the
// Dockerfile and carries out its instructions, one folder per stage: COPY from the build context
// (the repository's files less .dockerignore) or from an earlier stage, RUN in the stage's folder,
// ENV for the final CMD. Then it starts the final stage's CMD and checks that it serves. The
// base images are not used (the host's Node 20 stands in for node:20-*), so this checks the
// Dockerfile's own steps, paths and commands, not the images. To keep CI short, the build
// stage's full `npm ci` links the repository's node_modules (installed by CI's own `npm ci` from
// the same lock) instead of installing 600 MB again; IMAGE_STEPS_FULL=1 runs it for real. The
// build and the runtime stage's `npm ci --omit=dev` always run.
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Stage {
  name: string;
  dir: string;
  workdir: string;
  env: Record<string, string>;
  cmd: string[];
  entrypoint: string[];
  /** Packages the stage adds from its base image's own package manager (`apk add`). */
  packages: string[];
}

/** The Dockerfile's instructions, with continuation lines joined and comments dropped. */
function dockerfileInstructions(text: string): { op: string; args: string }[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [op = '', ...rest] = line.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(' ') };
    });
}

/** The files a `docker build .` would send: tracked and new files, less .dockerignore. */
function contextFiles(): string[] {
  const ignore = readFileSync(path.join(repoRoot, '.dockerignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const listed = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  if (listed.status !== 0) throw new Error(listed.stderr);
  const ignored = (file: string) =>
    ignore.some((pattern) =>
      pattern.startsWith('*')
        ? file.endsWith(pattern.slice(1))
        : file === pattern || file.startsWith(`${pattern}/`),
    );
  return listed.stdout
    .split('\n')
    .filter(Boolean)
    .filter((file) => !ignored(file) && existsSync(path.join(repoRoot, file)));
}

function run(command: string, cwd: string, env: Record<string, string>) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn('sh', ['-c', command], {
      cwd,
      // Installs come from the npm cache that CI's own `npm ci` has just filled.
      env: {
        ...process.env,
        ...env,
        npm_config_prefer_offline: 'true',
        NODE_ENV: env.NODE_ENV ?? '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`RUN ${command} failed (${code}):\n${output}`)),
    );
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const work = mkdtempSync(path.join(os.tmpdir(), 'qi-image-'));
afterAll(() => rmSync(work, { recursive: true, force: true }), 300_000);

describe('the Dockerfile, step by step in clean folders', () => {
  it('builds, installs only runtime dependencies, and the image’s command serves the portal', {
    timeout: 600_000,
  }, async () => {
    const instructions = dockerfileInstructions(
      readFileSync(path.join(repoRoot, 'Dockerfile'), 'utf8'),
    );
    const context = contextFiles();
    const stages: Stage[] = [];
    let stage: Stage | undefined;
    const inStage = (s: Stage, target: string) =>
      path.join(s.dir, path.posix.resolve(s.workdir, target));

    for (const { op, args } of instructions) {
      if (op === 'FROM') {
        const name = /\bAS\s+(\S+)/i.exec(args)?.[1] ?? `stage-${stages.length}`;
        stage = {
          name,
          dir: path.join(work, name),
          workdir: '/',
          env: {},
          cmd: [],
          entrypoint: [],
          packages: [],
        };
        mkdirSync(stage.dir, { recursive: true });
        stages.push(stage);
        continue;
      }
      if (!stage) throw new Error(`${op} before FROM`);
      if (op === 'WORKDIR') {
        stage.workdir = path.posix.resolve(stage.workdir, args);
        mkdirSync(inStage(stage, '.'), { recursive: true });
      } else if (op === 'ENV') {
        for (const [, key, value] of args.matchAll(/(\w+)=(\S+)/g))
          stage.env[key as string] = value as string;
      } else if (op === 'COPY') {
        const parts = args.split(/\s+/);
        const from = parts.find((p) => p.startsWith('--from='))?.slice('--from='.length);
        const paths = parts.filter((p) => !p.startsWith('--'));
        const dest = paths.pop() as string;
        const source = from ? stages.find((s) => s.name === from) : undefined;
        if (from && !source) throw new Error(`COPY --from=${from}: no such stage`);
        for (const src of paths) {
          if (source) {
            const target =
              paths.length > 1 || dest.endsWith('/')
                ? path.join(inStage(stage, dest), path.basename(src))
                : inStage(stage, dest);
            cpSync(path.join(source.dir, path.posix.resolve(source.workdir, src)), target, {
              recursive: true,
              verbatimSymlinks: true,
            });
          } else if (src === '.') {
            for (const file of context)
              cpSync(path.join(repoRoot, file), path.join(inStage(stage, dest), file), {
                recursive: true,
              });
          } else {
            if (!context.includes(src)) throw new Error(`COPY ${src}: not in the build context`);
            cpSync(path.join(repoRoot, src), path.join(inStage(stage, dest), src));
          }
        }
      } else if (op === 'RUN' && /^apk add\b/.test(args)) {
        // The base image's packages, like the base image itself, are not on this host.
        stage.packages.push(
          ...args
            .split(/\s+/)
            .slice(2)
            .filter((word) => !word.startsWith('-')),
        );
      } else if (op === 'RUN') {
        const fullInstall = /^npm ci(?! .*--omit)/.test(args);
        if (fullInstall && !process.env.IMAGE_STEPS_FULL) {
          symlinkSync(
            path.join(repoRoot, 'node_modules'),
            path.join(inStage(stage, '.'), 'node_modules'),
            'dir',
          );
          continue;
        }
        // These commands run on the host, not in a container: nothing may touch its npm cache.
        if (/npm cache/.test(args))
          throw new Error(`RUN ${args}: would change this machine's npm cache`);
        await run(args, inStage(stage, '.'), stage.env);
      } else if (op === 'CMD') {
        stage.cmd = JSON.parse(args) as string[];
      } else if (op === 'ENTRYPOINT') {
        stage.entrypoint = JSON.parse(args) as string[];
      } else if (!['USER', 'EXPOSE', 'HEALTHCHECK', 'VOLUME'].includes(op)) {
        throw new Error(`the test does not know Dockerfile instruction ${op}`);
      }
    }

    const final = stages.at(-1) as Stage;
    const appDir = inStage(final, '.');
    // Only what the runtime needs: no Vite, no tsx, no TypeScript sources.
    expect(existsSync(path.join(appDir, 'node_modules', 'hono'))).toBe(true);
    for (const absent of [
      'node_modules/vite',
      'node_modules/tsx',
      'node_modules/esbuild',
      'src',
      'server',
    ]) {
      expect(existsSync(path.join(appDir, absent)), absent).toBe(false);
    }

    // The init (tini) is process 1 and starts the server: it comes from the stage's own packages.
    const [init, ...initArgs] = final.entrypoint;
    expect(init).toBe('/sbin/tini');
    expect(final.packages).toContain('tini');
    expect(initArgs).toEqual(['--']);

    const port = await freePort();
    // Where the host has tini too (Debian's is /usr/bin/tini), the server runs under it here.
    const hostInit = ['/sbin/tini', '/usr/bin/tini'].find((file) => existsSync(file));
    const [command, ...commandArgs] = [
      ...(hostInit ? [hostInit, '--'] : []),
      ...final.cmd.map((word) => (word === 'node' ? process.execPath : word)),
    ];
    const child = spawn(command as string, commandArgs, {
      cwd: appDir,
      env: {
        PATH: process.env.PATH ?? '',
        ...final.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        MOCK_SIMULATOR_SECONDS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    try {
      const origin = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 30_000;
      while (
        !(await fetch(`${origin}/healthz`).then(
          (r) => r.ok,
          () => false,
        ))
      ) {
        if (child.exitCode !== null || Date.now() > deadline)
          throw new Error(`the image's command did not serve:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const html = await (await fetch(`${origin}/`)).text();
      const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      const asset = await fetch(`${origin}/${script}`, {
        headers: { 'Accept-Encoding': 'gzip, deflate, br' },
      });
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-encoding')).toBe('br');
      const list = await fetch(`${origin}/api/pending_tool_calls`, {
        headers: { 'user-agent': 'Mozilla/5.0' },
      });
      expect(list.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
