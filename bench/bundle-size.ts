// What a first visit downloads before the app can start, read from a build: every script of
// index.html (the entry module, classic scripts), every modulepreload and stylesheet link, and
// every module those import statically (followed in the code too, in case the bundler leaves one
// out of the preloads).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import budgetsFile from './budgets.json' with { type: 'json' };

export interface AssetSize {
  /** Path relative to the build directory, with forward slashes. */
  file: string;
  bytes: number;
  gzip: number;
  /** How it was found: in index.html, or only through a static import of another chunk. */
  foundBy: 'entry' | 'script' | 'modulepreload' | 'stylesheet' | 'import';
}

export interface InitialAssets {
  js: AssetSize[];
  css: AssetSize[];
  jsGzip: number;
  cssGzip: number;
}

export function gzipSize(body: Uint8Array): number {
  return gzipSync(body, { level: 9 }).byteLength;
}

function attributes(tag: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of tag.matchAll(/([\w:-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g)) {
    const name = (match[1] as string).toLowerCase();
    found.set(name, match[2] ?? match[3] ?? match[4] ?? '');
  }
  return found;
}

/** Static `import … from '…'`, `import '…'` and `export … from '…'`; never `import('…')`. */
export function staticImports(code: string): string[] {
  const found: string[] = [];
  const pattern = /(?:^|[^\w$.])(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["']([^"']+)["']/g;
  for (const match of code.matchAll(pattern)) found.push(match[1] as string);
  return found;
}

/**
 * Initial JS and CSS of the build in `distDir`, each file's size and gzip -9 size: of its
 * index.html, or of `page` (another page's HTML, whose addresses are relative to `distDir`).
 */
export async function initialAssetSizes(distDir: string, page?: string): Promise<InitialAssets> {
  const html = page ?? (await readFile(path.join(distDir, 'index.html'), 'utf8'));
  const toFile = (href: string) => path.join(distDir, href.replace(/^(\.\/|\/)+/, ''));
  const found = new Map<string, AssetSize['foundBy']>();
  const queue: string[] = [];
  const add = (file: string, foundBy: AssetSize['foundBy']) => {
    if (found.has(file)) return;
    found.set(file, foundBy);
    // A classic script cannot import; modules can.
    if (foundBy !== 'script' && /\.m?js$/.test(file)) queue.push(file);
  };
  const local = (href: string | undefined): href is string =>
    !!href && !/^[a-z][a-z0-9+.-]*:|^\/\//i.test(href);

  // Not a tag named in a comment (index.html's own say what vite.config.ts adds).
  const tags = html.replace(/<!--[\s\S]*?-->/g, '');
  for (const [tag] of tags.matchAll(/<(?:script|link)\b[^>]*>/gi)) {
    const attrs = attributes(tag);
    if (tag.toLowerCase().startsWith('<script')) {
      const src = attrs.get('src');
      if (local(src)) add(toFile(src), attrs.get('type') === 'module' ? 'entry' : 'script');
      continue;
    }
    const rel = (attrs.get('rel') ?? '').toLowerCase().split(/\s+/);
    const href = attrs.get('href');
    if (!local(href)) continue;
    if (rel.includes('modulepreload')) add(toFile(href), 'modulepreload');
    else if (rel.includes('stylesheet')) add(toFile(href), 'stylesheet');
  }

  while (queue.length > 0) {
    const file = queue.shift() as string;
    const code = await readFile(file, 'utf8');
    for (const specifier of staticImports(code)) {
      if (specifier.startsWith('.') || specifier.startsWith('/')) {
        add(path.resolve(path.dirname(file), specifier), 'import');
      }
    }
  }

  const sizes: AssetSize[] = [];
  for (const [file, foundBy] of found) {
    const body = await readFile(file);
    sizes.push({
      file: path.relative(distDir, file).split(path.sep).join('/'),
      bytes: body.byteLength,
      gzip: gzipSize(body),
      foundBy,
    });
  }
  const js = sizes.filter((asset) => /\.m?js$/.test(asset.file));
  const css = sizes.filter((asset) => asset.file.endsWith('.css'));
  const sum = (assets: AssetSize[]) => assets.reduce((total, asset) => total + asset.gzip, 0);
  return { js, css, jsGzip: sum(js), cssGzip: sum(css) };
}

export interface Budget {
  id: string;
  label: string;
  unit: string;
  max?: number;
  maxRatioToFloor?: number;
  /** What `maxRatioToFloor` compares with, in the output (default "floor"). */
  floorName?: string;
  ifFloorIsZero?: { max: number; unit: string };
}

export const budgets: Budget[] = budgetsFile.budgets;
/** The 10,000-question scenario's own budgets (bench/scale.ts). */
export const scaleBudgets: Budget[] = budgetsFile.scaleBudgets;
/** The three-source scenario's (bench/sources.ts): as `npm start` serves it, one system late. */
export const sourcesBudgets: Budget[] = budgetsFile.sourcesBudgets;
/** The triage figure's (bench/triage.ts): the portal now against the portal before issue 14. */
export const triageBudgets: Budget[] = budgetsFile.triageBudgets;
/** Presence and claims (bench/team.ts, issue 28): one browser, three tabs, one reviewer. */
export const teamBudgets: Budget[] = budgetsFile.teamBudgets;
/** The Insights page's answer time (bench/insights.ts, issue 39), per engine. */
export const insightsBudgets: Budget[] = budgetsFile.insightsBudgets;

/**
 * Notifications (issue 38): a routing pass and a burst's messages (bench/notify.ts); a new question
 * → each receiver, in real time (the notifyDelivery* ones, bench/notify-delivery.ts).
 */
export const notifyBudgets: Budget[] = budgetsFile.notifyBudgets;

/** The flood (bench/flood.ts, issue 36): two replicas, one flooded, the other answering. */
export const floodBudgets: Budget[] = budgetsFile.floodBudgets;

/** The watcher (bench/watch.ts, issue 37): upstream requests, listeners, memory and CPU. */
export const watchBudgets: Budget[] = budgetsFile.watchBudgets;

export function budgetMax(id: string): number {
  const budget = budgets.find((entry) => entry.id === id);
  if (budget?.max === undefined) throw new Error(`bench/budgets.json has no absolute budget ${id}`);
  return budget.max;
}

export function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

/** One line per file and a total per kind, against the budgets. */
export function describeInitialAssets(assets: InitialAssets): string {
  const lines = (kind: string, list: AssetSize[], total: number, max: number) => [
    `initial ${kind}, gzip -9: ${kb(total)} (budget ${kb(max)})${total > max ? ' OVER BUDGET' : ''}`,
    ...[...list]
      .sort((a, b) => b.gzip - a.gzip)
      .map(
        (asset) =>
          `  ${asset.file.padEnd(48)} ${kb(asset.gzip).padStart(9)} gzip  ${kb(asset.bytes).padStart(9)} raw  (${asset.foundBy})`,
      ),
  ];
  return [
    ...lines('JS', assets.js, assets.jsGzip, budgetMax('initialJs')),
    ...lines('CSS', assets.css, assets.cssGzip, budgetMax('initialCss')),
  ].join('\n');
}
