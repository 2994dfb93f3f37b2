import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { firstScreenParts } from './scripts/first-screen-chunk.ts';
import { importRetry } from './scripts/import-retry.ts';
import { minifyPublicScripts } from './scripts/minify-public.ts';
import { beyondFirstDownload, partPreloadsFile } from './scripts/part-preloads.ts';
import { precompress } from './scripts/precompress.ts';
import { sharedInterop } from './scripts/shared-interop.ts';

const src = fileURLToPath(new URL('./src', import.meta.url));
const mock = fileURLToPath(new URL('./mock', import.meta.url));
const partsChunk = firstScreenParts(src);

const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';
/** The chunk of the first download left without it (codeSplitting below). */
const UNHINTED = 'question-policy';

/**
 * Chrome's explicit compile hint (Chrome 136+; other browsers ignore the comment) on the chunks the
 * entry imports (React; the bundler's runtime): compile all their functions on the background
 * thread that streams the file, instead of one at a time on the main thread the first time each
 * is called. Most of React's code runs at start-up: without the hint the browser's own render
 * (nginx, the demo) showed its list 49 ms later (bench scratch A/B, 21 loads each, 2026-12-07),
 * for 0.12 MB less heap. Not on the entry itself: it holds all of React Router and React Query,
 * much of which a visit never calls, and hinted it kept 0.2 MB more compiled code in the heap
 * (bench, 2026-12-02). Nor on the lazy parts (the drawer, dialogs, toasts, the other systems'
 * adapters): hinting them too kept 0.33 MB in the heap from start-up on, over the 5 MB budget
 * (bench, 2026-12-01); the drawer is warmed by running it once instead (WarmUp). Nor on the
 * question-policy chunk (zod, the API client, the clocks, React Query's and Mantine's shared core):
 * most of it is zod, of which the first screen calls a few functions, and compiling all of it kept
 * ~0.06 MB in the heap (bench, 2026-12-03). The comment must be the file's first line, so it is
 * added after minification and after Vite's own additions, and the emitted source map (the `.map`
 * file) moves down a line with it.
 */
function compileHints(): Plugin {
  return {
    name: 'questions-inbox:compile-hints',
    apply: 'build',
    enforce: 'post',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const chunks = new Map(
          Object.values(bundle).flatMap((file) =>
            file.type === 'chunk' ? [[file.fileName, file] as const] : [],
          ),
        );
        const initial = new Set<string>();
        const add = (fileName: string) => {
          if (initial.has(fileName)) return;
          initial.add(fileName);
          for (const imported of chunks.get(fileName)?.imports ?? []) add(imported);
        };
        for (const chunk of chunks.values()) if (chunk.isEntry) add(chunk.fileName);
        for (const file of chunks.values()) {
          if (!initial.has(file.fileName) || file.isEntry || file.name === UNHINTED) continue;
          file.code = COMPILE_HINT + file.code;
          const map = bundle[`${file.fileName}.map`];
          if (map?.type === 'asset' && typeof map.source === 'string') {
            const json = JSON.parse(map.source) as { mappings: string };
            json.mappings = `;${json.mappings}`;
            map.source = JSON.stringify(json);
          }
        }
      },
    },
  };
}

/**
 * The lazily loaded chunks that read several sources as one (sources/inbox-source.ts, and
 * Vertesia's and Bilby's adapters in sources/system-sources.ts) and what they import that the
 * first download does not already hold; null outside a build.
 */
function severalSourcesCode(bundle: Record<string, unknown> | undefined): string[] | null {
  if (!bundle) return null;
  type Chunk = { type: 'chunk'; fileName: string; isEntry: boolean; imports: string[] };
  const chunks = (Object.values(bundle) as Array<Chunk & { facadeModuleId: string | null }>).filter(
    (file) => file.type === 'chunk',
  );
  const roots = chunks
    .filter((chunk) =>
      /[\\/]sources[\\/](inbox-source|system-sources)\.ts$/.test(chunk.facadeModuleId ?? ''),
    )
    .map((chunk) => chunk.fileName);
  if (roots.length === 0) return null;
  return beyondFirstDownload(chunks)(roots);
}

/**
 * react-router 7 resolves to its development build under every export condition, production
 * builds included (remix-run/react-router#12532, #14102: meant to be temporary, still so in
 * 7.18.7), which ships its development warnings to every reviewer. The portal's build takes the
 * package's own production build instead: the same code without them, and 0.5 KB less in the first
 * download. Tests and the dev server keep the development build and its warnings.
 */
function reactRouterProductionBuild(): Plugin {
  const root = dirname(createRequire(import.meta.url).resolve('react-router/package.json'));
  const production = join(root, 'dist', 'production', 'index.mjs');
  return {
    name: 'questions-inbox:react-router-production',
    apply: 'build',
    enforce: 'pre',
    resolveId: (source) => (source === 'react-router' ? production : null),
  };
}

/** The module MantineProvider renders its <style> of CSS variables with. */
const MANTINE_CSS_VARIABLES = './MantineCssVariables/MantineCssVariables.mjs';
const NO_CSS_VARIABLES = '\0questions-inbox:no-mantine-css-variables';

/**
 * The portal's MantineProvider never renders Mantine's CSS variables (`withCssVariables={false}`
 * in src/app/mantine-provider.tsx: theme.generated.css holds them, for the CSP), but the module
 * that would render them computes all of Mantine's default variables when it is imported
 * (remove-default-variables.mjs: about 640 strings in three objects, kept for the page's life,
 * and code V8 optimises while it builds them). The build gives MantineProvider a component that
 * renders nothing in its place. Tests and the dev server keep Mantine's own.
 */
function noMantineCssVariables(): Plugin {
  return {
    name: 'questions-inbox:no-mantine-css-variables',
    apply: 'build',
    enforce: 'pre',
    resolveId: (source, importer) =>
      source === MANTINE_CSS_VARIABLES &&
      importer &&
      /@mantine[\\/]core[\\/]esm[\\/]core[\\/]MantineProvider[\\/]MantineProvider\.mjs$/.test(
        importer,
      )
        ? NO_CSS_VARIABLES
        : null,
    load: (id) =>
      id === NO_CSS_VARIABLES ? 'export function MantineCssVariables() { return null; }' : null,
  };
}

/**
 * Modules of the first screen that lazily loaded parts (the drawer, the Activity page, the
 * adapters) import too. Left to the bundler, each became a file of its own, a dozen files of
 * 0.2-3 KB in the first download (each compressed on its own: about 1 KB more in all); they
 * travel as one. Everything here is in the first download anyway: nothing lazy is pulled in.
 */
const FIRST_SCREEN_SHARED = [
  // The status policy and the adapters' reasons it reads (sources/*/capabilities.ts).
  /src[\\/]features[\\/]questions[\\/](utils[\\/]question-policy|sources[\\/](types|addressable|\w+[\\/]capabilities))\.ts$/,
  /src[\\/]lib[\\/](api-client|clock|server-clock|format-time)\.ts$/,
  /node_modules[\\/]@tanstack[\\/]query-core[\\/]build[\\/]modern[\\/](subscribable|focusManager|timeoutManager|utils|environmentManager|notifyManager|removable|onlineManager|retryer)\.js$/,
  /node_modules[\\/]@tanstack[\\/]react-query[\\/]build[\\/]modern[\\/](QueryClientProvider|queryOptions)\.js$/,
  /node_modules[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/](Loader|Text|Transition|UnstyledButton|CloseButton)[\\/]/,
  /node_modules[\\/]@mantine[\\/]hooks[\\/]esm[\\/](use-media-query|use-did-update|use-reduced-motion|use-id|use-window-event|utils[\\/]random-id)[\\/]/,
];

/**
 * The server's build of the first screen (`vite build --ssr`, see SSR_BUILD): the same components
 * and CSS module class names as the browser's, for Node. Only the plugins that change what the
 * code does apply; the ones that shape the browser's download (compile hints, precompressed
 * copies, public scripts) do not.
 */
export const SSR_BUILD = {
  ssr: 'src/app/entry-server.tsx',
  outDir: 'dist-ssr',
} as const;

export default defineConfig(({ isSsrBuild, mode }) => ({
  // Relative asset URLs plus a <base href> in index.html: one build serves any sub-path.
  base: './',
  plugins: isSsrBuild
    ? [reactRouterProductionBuild(), noMantineCssVariables(), react()]
    : [
        reactRouterProductionBuild(),
        noMantineCssVariables(),
        react(),
        {
          // public/prefetch.js fetches config.json and the first list while the app downloads. It is
          // a plain script, which Vite would warn it cannot bundle: the tag goes in after Vite is done,
          // right after <base> (its URL is relative to it) and before everything else, as a classic
          // blocking script: it runs as soon as it arrives (one small request), so the list is asked
          // for while the app's code is still downloading, not after it has been evaluated.
          name: 'questions-inbox:prefetch-script',
          transformIndexHtml: {
            order: 'post',
            handler: (html, context) => {
              const base = /<base [^>]*>/.exec(html);
              if (!base) throw new Error('index.html has no <base> for prefetch.js to follow');
              const at = base.index + base[0].length;
              const sourcesCode = severalSourcesCode(context.bundle);
              // Read by prefetch.js: with several sources configured, their code is preloaded with
              // the app's, not asked for once the app has run (issue 31). Only a name here: a
              // one-source inbox downloads none of it.
              const meta = sourcesCode
                ? `\n    <meta name="qi-sources-code" content="${sourcesCode.join(' ')}" />`
                : '';
              return `${html.slice(0, at)}\n    <link rel="preload" href="./config.json" as="fetch" crossorigin="anonymous" />${meta}\n    <script src="./prefetch.js"></script>${html.slice(at)}`;
            },
          },
        },
        compileHints(),
        partsChunk.check,
        partPreloadsFile(src),
        importRetry(),
        sharedInterop(),
        minifyPublicScripts(),
        precompress(),
      ],
  resolve: { alias: { '@': src } },
  // The server's build holds its libraries (one React, in its production build), so it runs
  // with the dependencies `npm ci --omit=dev` installs and renders as fast as it can.
  ...(isSsrBuild
    ? {
        ssr: { noExternal: true },
        define: {
          'process.env.NODE_ENV': JSON.stringify(
            mode === 'development' ? 'development' : 'production',
          ),
        },
      }
    : {}),
  build: isSsrBuild
    ? {
        ...SSR_BUILD,
        target: 'node20',
        copyPublicDir: false,
        // One file holding React, Mantine and the rest is what a server build is.
        chunkSizeWarningLimit: 4096,
        emptyOutDir: true,
        sourcemap: true,
      }
    : {
        target: 'es2022',
        sourcemap: true,
        // Every browser the portal supports has modulepreload; the polyfill would cost every visit.
        modulePreload: { polyfill: false },
        rolldownOptions: {
          output: {
            // React changes less often than the app: its own chunk stays cached across deploys. Other
            // libraries are left to the bundler, so code used only by lazily loaded parts (the drawer,
            // the answer forms, toasts) stays out of the initial download.
            codeSplitting: {
              groups: [
                {
                  name: 'react',
                  test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/,
                },
                // The status policy and the adapters' reasons it reads (sources/*/capabilities.ts, which
                // the lazily loaded adapters share) travel as one file of the first download, not two.
                {
                  name: 'question-policy',
                  test: (id: string) => FIRST_SCREEN_SHARED.some((pattern) => pattern.test(id)),
                },
                // The code of the parts every inbox page shows, in one file, not thirty.
                ...partsChunk.groups,
              ],
            },
          },
        },
      },
  test: {
    // Tests start the mock backend in-process; the build has no @mock alias, so portal code cannot.
    alias: { '@mock': mock },
    // A drawer test that takes 1 s on a quiet machine has taken over 5 s on a shared CI machine.
    testTimeout: process.env.CI ? 20_000 : 5_000,
    // Vitest's default is one worker fewer than the cores: one on these 2-core machines, where two
    // run the unit tests in 147 s instead of 217 s (most of a jsdom test file is waiting).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'mock/**/*.test.ts',
            'server/**/*.test.ts',
            'bench/**/*.test.ts',
            'lint/**/*.test.ts',
            'scripts/**/*.test.ts',
            'deploy/**/*.test.ts',
            'demo/**/*.test.ts',
          ],
          // The Dockerfile's steps (a build and an install) run on their own after the unit
          // tests (`npm run test:image`), not beside the browser-like tests on a 2-core machine.
          exclude: process.env.QI_IMAGE_STEPS ? [] : ['scripts/image-steps.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          // One jsdom per worker, not per file: 47 s instead of 140 s for these 43 files (most of
          // a file's time was importing Mantine and React again). src/test/setup.ts resets what
          // is shared after every test: the DOM, storage, the mock API, Mantine's notifications.
          isolate: false,
          globals: true,
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['./src/test/setup.ts'],
        },
      },
    ],
  },
}));
