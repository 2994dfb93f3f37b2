// Writes `<file>.br` and `<file>.gz` next to every compressible file of a build, at the highest
// settings (done once per build, not per request), for server/http/precompressed.ts to send.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** What is compressed: code and styles, SVG, web manifests. Not config.json (each deployment
 * edits it), not index.html (the server rewrites its <base>), not source maps. */
const WANTED = /\.(?:js|mjs|css|svg|webmanifest)$/;
const MIN_BYTES = 1024;

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile()) yield full;
  }
}

export interface PrecompressResult {
  files: number;
  bytes: number;
  brotliBytes: number;
  gzipBytes: number;
}

export async function precompressDir(dir: string): Promise<PrecompressResult> {
  const result: PrecompressResult = { files: 0, bytes: 0, brotliBytes: 0, gzipBytes: 0 };
  const jobs: Promise<void>[] = [];
  for await (const file of files(dir)) {
    if (!WANTED.test(file) || (await stat(file)).size < MIN_BYTES) continue;
    jobs.push(
      (async () => {
        const source = await readFile(file);
        const [br, gzipped] = await Promise.all([
          brotli(source, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              [constants.BROTLI_PARAM_SIZE_HINT]: source.byteLength,
            },
          }),
          gz(source, { level: 9 }),
        ]);
        result.files += 1;
        result.bytes += source.byteLength;
        // A variant that is not smaller is not worth a Content-Encoding.
        if (br.byteLength < source.byteLength) {
          await writeFile(`${file}.br`, br);
          result.brotliBytes += br.byteLength;
        }
        if (gzipped.byteLength < source.byteLength) {
          await writeFile(`${file}.gz`, gzipped);
          result.gzipBytes += gzipped.byteLength;
        }
      })(),
    );
  }
  await Promise.all(jobs);
  return result;
}

export const PRECOMPRESS = 'questions-inbox:precompress';

/** Vite plugin: precompress the output directory once the bundle is written. */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: PRECOMPRESS,
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompressDir(outDir);
    },
  };
}
