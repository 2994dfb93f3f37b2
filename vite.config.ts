import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const src = fileURLToPath(new URL('./src', import.meta.url));

export default defineConfig({
  // Relative asset URLs plus a <base href> in index.html: one build serves any sub-path.
  base: './',
  plugins: [
    react(),
    {
      // public/prefetch.js fetches config.json and the first list while the app downloads. It is
      // a plain script, which Vite would warn it cannot bundle: the tag goes in after Vite is done.
      name: 'questions-inbox:prefetch-script',
      transformIndexHtml: {
        order: 'post',
        handler: () => [
          { tag: 'script', attrs: { src: './prefetch.js', async: true }, injectTo: 'head' },
        ],
      },
    },
  ],
  resolve: { alias: { '@': src } },
  build: {
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
          ],
        },
      },
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['mock/**/*.test.ts', 'server/**/*.test.ts', 'bench/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          globals: true,
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['./src/test/setup.ts'],
        },
      },
    ],
  },
});
