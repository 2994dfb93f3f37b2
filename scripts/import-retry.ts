// Dynamic imports that can be tried again. Chromium keeps a module whose download failed as failed
// for the page's life (the HTML spec's module map): `import()` of the same address again rejects
// at once without asking the network, so the portal's "Try again" on a part that could not be
// downloaded (src/components/load-boundary.tsx) could never succeed (Chromium 150; e2e/hardening).
// Each `import("./chunk.js")` of the build goes through `__qiImport` (src/lib/import-retry.ts,
// the entry's first import, so it is there before any module runs), which asks for an address that
// failed before with `?retry=N`: a new entry in the module map.
import type { Plugin } from 'vite';

const DYNAMIC_IMPORT = /\bimport\((["'`])(\.\/[^"'`]+\.js)\1\)/g;

/** The chunk's code with its relative dynamic imports made retryable, or null if it has none. */
export function retryableImports(code: string): string | null {
  if (!DYNAMIC_IMPORT.test(code)) return null;
  DYNAMIC_IMPORT.lastIndex = 0;
  return code.replace(
    DYNAMIC_IMPORT,
    (_all, quote: string, specifier: string) =>
      `__qiImport(${quote}${specifier}${quote},import.meta.url)`,
  );
}

export function importRetry(): Plugin {
  return {
    name: 'questions-inbox:import-retry',
    apply: 'build',
    enforce: 'post',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const file of Object.values(bundle)) {
          if (file.type !== 'chunk') continue;
          const code = retryableImports(file.code);
          if (code !== null) file.code = code;
        }
      },
    },
  };
}
