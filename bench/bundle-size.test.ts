import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { describe, expect, it } from 'vitest';
import { firstScreenHead, withFirstScreen } from '../server/render/page-html';
import {
  budgetMax,
  describeInitialAssets,
  type InitialAssets,
  initialAssetSizes,
  staticImports,
} from './bundle-size';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('staticImports', () => {
  it('finds static imports and re-exports, not dynamic imports', () => {
    const code =
      'import{a as b}from"./react-1.js";import"./side.js";export{c}from\'./c.js\';' +
      'const d=()=>import("./lazy.js");import * as e from "./ns.js";x.import("./no.js")';
    expect(staticImports(code)).toEqual(['./react-1.js', './side.js', './c.js', './ns.js']);
  });
});

describe('initial download of the built portal', () => {
  it('fits the JS and CSS budgets of bench/budgets.json', { timeout: 180_000 }, async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'qi-bundle-size-'));
    // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    let assets: InitialAssets;
    let rendered: InitialAssets;
    let mantineDefaults: string[];
    try {
      await build({
        root,
        configFile: path.join(root, 'vite.config.ts'),
        logLevel: 'warn',
        build: { outDir, emptyOutDir: true },
      });
      assets = await initialAssetSizes(outDir);
      // Mantine's default CSS variables, which the portal never renders (vite.config.ts,
      // noMantineCssVariables): computed at import, they were 0.15 MB of the heap after load.
      mantineDefaults = [];
      for (const asset of assets.js) {
        const code = await readFile(path.join(outDir, asset.file), 'utf8');
        if (code.includes('--mantine-color-scheme"')) mantineDefaults.push(asset.file);
      }
      // A page whose first screen the server rendered (one system, as the budget's page has):
      // first-screen.js in place of prefetch.js, linked (the server writes it into the page when
      // it can, server/render/inline-script.ts: then it is not a download of its own).
      const template = await readFile(path.join(outDir, 'index.html'), 'utf8');
      const page = withFirstScreen(template, {
        head: firstScreenHead(template, { config: JSON.stringify({ apiBaseUrl: 'api' }) }),
        root: '<main></main>',
        after: '',
      });
      rendered = await initialAssetSizes(outDir, page ?? '');
    } finally {
      process.env.NODE_ENV = nodeEnv;
      await rm(outDir, { recursive: true, force: true });
    }
    const report = describeInitialAssets(assets);
    console.log(report);
    expect(mantineDefaults, 'Mantine computes its default CSS variables at import').toEqual([]);
    expect(assets.js.length, 'the entry module was not found in index.html').toBeGreaterThan(0);
    expect(assets.jsGzip, `initial JS over budget\n${report}`).toBeLessThanOrEqual(
      budgetMax('initialJs'),
    );
    expect(assets.cssGzip, `initial CSS over budget\n${report}`).toBeLessThanOrEqual(
      budgetMax('initialCss'),
    );
    const renderedReport = describeInitialAssets(rendered);
    console.log(`A page the server rendered:\n${renderedReport}`);
    expect(rendered.js.map((asset) => asset.file)).toContain('first-screen.js');
    expect(rendered.js.map((asset) => asset.file)).not.toContain('prefetch.js');
    expect(rendered.jsGzip, `initial JS over budget\n${renderedReport}`).toBeLessThanOrEqual(
      budgetMax('initialJs'),
    );
  });
});
