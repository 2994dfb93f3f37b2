/**
 * How the build's dynamic imports download a chunk (scripts/import-retry.ts rewrites each
 * `import("./chunk.js")` to call this): an address whose download failed is asked for again with
 * `?retry=N`, since the browser keeps the failure of the first address for the page's life.
 * Installed as this module runs: main.tsx imports it first, before any module that imports.
 */
const failures = new Map<string, number>();

declare global {
  var __qiImport: (specifier: string, base: string) => Promise<unknown>;
}

globalThis.__qiImport = (specifier, base) => {
  const url = new URL(specifier, base).href;
  const failed = failures.get(url) ?? 0;
  return import(/* @vite-ignore */ failed ? `${url}?retry=${failed}` : url).catch(
    (error: unknown) => {
      failures.set(url, failed + 1);
      throw error;
    },
  );
};

export {};
