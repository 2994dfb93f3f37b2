// Compiles the server (server/start.ts, with the mock it serves in demo mode) to one plain
// JavaScript module, dist-server/start.js, that runs with `node` alone: no TypeScript loader, no
// Vite. Packages stay imports (hono, @hono/node-server, zod: dependencies, so `npm ci
// --omit=dev` installs them). esbuild rather than tsc: tsc emits one file per module and keeps
// extension-less imports that Node's ESM loader cannot resolve; esbuild bundles them into one.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function buildServer(outfile = path.join(root, 'dist-server', 'start.js')) {
  return build({
    entryPoints: [path.join(root, 'server', 'start.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    packages: 'external',
    sourcemap: true,
    // The dev-only paths (`import('vite')`) stay dynamic imports that production never reaches.
    logLevel: 'warning',
    metafile: true,
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await buildServer();
  const outputs = Object.entries(result.metafile.outputs).filter(([name]) => name.endsWith('.js'));
  for (const [name, output] of outputs) {
    console.log(
      `${path.relative(root, path.resolve(name))}  ${(output.bytes / 1024).toFixed(1)} KB`,
    );
  }
}
