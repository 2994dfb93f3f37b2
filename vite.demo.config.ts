import { createHash } from 'node:crypto';
import { copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, mergeConfig, type Plugin, type UserConfig } from 'vite';
import { demoConfigJson } from './demo/config.ts';
import { PRECOMPRESS } from './scripts/precompress.ts';
import baseConfig from './vite.config.ts';

// `npm run build:demo`: the portal exactly as `npm run build` makes it, plus the mock backends in
// a Service Worker (demo/sw.ts), into dist-demo/, for any static host under any sub-path.

const root = fileURLToPath(new URL('.', import.meta.url));
const demoDir = path.join(root, 'demo');

function replaceOnce(
  html: string,
  pattern: RegExp,
  replacement: (match: RegExpExecArray) => string,
) {
  const match = pattern.exec(html);
  if (!match) throw new Error(`demo build: index.html has no ${pattern} (has its shape changed?)`);
  return (
    html.slice(0, match.index) + replacement(match) + html.slice(match.index + match[0].length)
  );
}

/**
 * index.html for the demo: `<base href="./">` (the worker puts the root in for pages below it),
 * and the app is started by demo-start.js once the worker answers the page's requests.
 */
export function demoIndexHtml(html: string): string {
  let entry = '';
  let out = replaceOnce(html, /<base href="\/" \/>/, () => '<base href="./" />');
  // On the first visit config.json is fetched only once the worker is in: a preload would go
  // unused (and the browser says so in the console).
  out = replaceOnce(out, /\s*<link rel="preload" href="\.\/config\.json"[^>]*>/, () => '');
  out = replaceOnce(
    out,
    /\s*<script type="module" crossorigin src="(\.\/assets\/[^"]+\.js)"><\/script>/,
    (match) => {
      entry = match[1] ?? '';
      return '';
    },
  );
  out = replaceOnce(
    out,
    /<script src="\.\/prefetch\.js"><\/script>/,
    () =>
      `<script src="./demo-start.js" data-prefetch="./prefetch.js" data-entry="${entry}"></script>\n` +
      `    <link rel="modulepreload" crossorigin href="${entry}" />\n` +
      '    <link rel="stylesheet" href="./demo.css" />',
  );
  return out;
}

async function filesUnder(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory()
        ? filesUnder(path.join(dir, entry.name), `${prefix}${entry.name}/`)
        : [`${prefix}${entry.name}`],
    ),
  );
  return nested.flat().sort();
}

const scriptBuild = (entry: string, fileName: string, outDir: string, define = {}) =>
  build({
    configFile: false,
    root,
    logLevel: 'warn',
    define: { 'process.env.NODE_ENV': '"production"', ...define },
    build: {
      outDir,
      emptyOutDir: false,
      copyPublicDir: false,
      target: 'es2022',
      sourcemap: true,
      lib: { entry, formats: ['iife'], name: 'questionsInboxDemo', fileName: () => fileName },
    },
  });

function demoPlugin(): Plugin {
  let outDir = '';
  return {
    name: 'questions-inbox:static-demo',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const indexPath = path.join(outDir, 'index.html');
      await writeFile(indexPath, demoIndexHtml(await readFile(indexPath, 'utf8')));
      // The portal reads all three mocked systems (public/config.json, for production, names one).
      const configPath = path.join(outDir, 'config.json');
      await writeFile(configPath, demoConfigJson(await readFile(configPath, 'utf8')));
      await copyFile(path.join(demoDir, 'not-found.html'), path.join(outDir, '404.html'));
      await copyFile(path.join(demoDir, 'demo.css'), path.join(outDir, 'demo.css'));
      await scriptBuild(path.join(demoDir, 'start.ts'), 'demo-start.js', outDir);

      // Everything the app may load, cached by the worker at install: the demo then works offline.
      const precache = (await filesUnder(outDir)).filter(
        (file) => !file.endsWith('.map') && file !== 'sw.js' && file !== '404.html',
      );
      const hash = createHash('sha256');
      for (const file of precache)
        hash.update(file).update(await readFile(path.join(outDir, file)));
      const version = hash.digest('hex').slice(0, 12);
      await writeFile(
        path.join(outDir, 'precache-manifest.json'),
        `${JSON.stringify({ version, files: precache }, null, 2)}\n`,
      );
      await scriptBuild(path.join(demoDir, 'sw.ts'), 'sw.js', outDir, {
        __DEMO_PRECACHE__: JSON.stringify(precache),
        __DEMO_VERSION__: JSON.stringify(version),
      });
    },
  };
}

// The precompressed .br/.gz copies are for the portal's own server: a static host compresses on
// its own, and the worker would precache every file three times.
const { plugins: basePlugins = [], ...base } = baseConfig({
  command: 'build',
  mode: 'production',
  isSsrBuild: false,
  isPreview: false,
}) as UserConfig;
const portalPlugins = basePlugins.filter(
  (plugin) =>
    !(plugin && typeof plugin === 'object' && 'name' in plugin && plugin.name === PRECOMPRESS),
);

export default mergeConfig({ ...base, plugins: portalPlugins }, {
  plugins: [demoPlugin()],
  build: { outDir: 'dist-demo' },
} satisfies UserConfig);
