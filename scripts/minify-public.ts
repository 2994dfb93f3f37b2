// The classic scripts in public/ (prefetch.js) are copied into the build as they are written,
// comments and all: the first download counted about 7 KB of it. This minifies them in place once
// the bundle is written, before precompress() makes their .br/.gz copies.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { transform } from 'esbuild';
import type { Plugin } from 'vite';

/** Files of public/ that are scripts the page loads as they are. */
export const PUBLIC_SCRIPTS = ['prefetch.js', 'first-screen.js'];

export function minifyPublicScripts(): Plugin {
  let outDir = 'dist';
  return {
    name: 'questions-inbox:minify-public-scripts',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      for (const file of PUBLIC_SCRIPTS) {
        const target = path.join(outDir, file);
        const code = await readFile(target, 'utf8').catch(() => null);
        if (code === null) continue;
        // Same language level as the app's build (es2022); a syntax error fails the build.
        const { code: minified } = await transform(code, {
          loader: 'js',
          minify: true,
          target: 'es2022',
          legalComments: 'none',
        });
        await writeFile(target, minified);
      }
    },
  };
}
