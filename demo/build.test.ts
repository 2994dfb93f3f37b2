import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../server/http/portal';
import { demoConfigJson } from './config';
import { DEMO_CSP } from './csp';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Strings only the mocks and the demo's worker have (seed data of the three systems, a simulator
// question, the control routes, the registration).
const MOCK_MARKERS = [
  'Northwind Traders',
  'Pied Piper says they were charged twice',
  'Which region should the new workspace for Acme Corp live in?',
  'Analytics database setup',
  '__mock',
  'serviceWorker',
  'questions-inbox-demo',
];
const WORKER_MARKERS = MOCK_MARKERS.slice(0, 5);

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

async function contents(dir: string): Promise<Map<string, string>> {
  const files = await filesUnder(dir);
  return new Map(
    await Promise.all(
      files.map(async (file) => [file, await readFile(path.join(dir, file), 'utf8')] as const),
    ),
  );
}

function scripts(html: string): string[] {
  return [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[0]);
}

let portal: Map<string, string>;
let demo: Map<string, string>;
const dirs: string[] = [];

beforeAll(async () => {
  // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    for (const configFile of ['vite.config.ts', 'vite.demo.config.ts']) {
      const outDir = await mkdtemp(path.join(os.tmpdir(), 'qi-demo-build-'));
      dirs.push(outDir);
      await build({
        root,
        configFile: path.join(root, configFile),
        logLevel: 'warn',
        build: { outDir, emptyOutDir: true },
      });
    }
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  [portal, demo] = (await Promise.all(dirs.map(contents))) as [typeof portal, typeof demo];
}, 300_000);

afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('the normal build (dist/)', () => {
  it("holds none of the mock, and no Service Worker but Web Push's", () => {
    expect(portal.size).toBeGreaterThan(5);
    // The one worker of the normal build is public/push-sw.js, registered only by the bell's
    // menu (its own lazily loaded part) when a reviewer turns on "Also when the inbox is closed";
    // the page hears the answers chosen on its notifications in a lazily loaded part too.
    // The menu's code travels with the first screen's other parts (scripts/first-screen-chunk.ts):
    // in that file, only the push feature's own modules may name a Service Worker.
    const partsFile = /^assets\/first-screen-parts-[\w-]+\.js$/;
    const pushPart = (file: string) =>
      file === 'push-sw.js' ||
      /^assets\/(push-menu|notification-answers)-[\w-]+\.js(\.map)?$/.test(file) ||
      partsFile.test(file) ||
      partsFile.test(file.replace(/\.map$/, ''));
    for (const [file, text] of portal) {
      for (const marker of MOCK_MARKERS) {
        if (marker === 'serviceWorker' && pushPart(file)) continue;
        expect(text.includes(marker), `${file} contains "${marker}"`).toBe(false);
      }
    }
    const partsMap = [...portal.keys()].find(
      (file) => partsFile.test(file.replace(/\.map$/, '')) && file.endsWith('.map'),
    );
    expect(partsMap).toBeDefined();
    const map = JSON.parse(portal.get(partsMap as string) as string) as {
      sources: string[];
      sourcesContent: string[];
    };
    const naming = map.sources.filter((_source, at) =>
      map.sourcesContent[at]?.includes('serviceWorker'),
    );
    expect(naming.length).toBeGreaterThan(0);
    for (const source of naming) expect(source).toMatch(/src\/features\/push\//);
    // It sends an answer chosen on a notification itself, but handles no page's requests.
    expect(portal.get('push-sw.js')).not.toMatch(/addEventListener\(\s*['"`]fetch/);
    expect([...portal.keys()].filter((file) => !file.startsWith('assets/'))).toEqual([
      'config.json',
      'favicon.svg',
      // The code of each part a server-rendered page can hold, for the server (scripts/part-preloads.ts).
      'first-screen-code.json',
      // Only in a page whose first screen the server rendered (server/render/first-screen.ts).
      'first-screen.js',
      'first-screen.js.br',
      'first-screen.js.gz',
      'index.html',
      'prefetch.js',
      // Precompressed for the portal's server (scripts/precompress.ts).
      'prefetch.js.br',
      'prefetch.js.gz',
      'push-sw.js',
      'push-sw.js.br',
      'push-sw.js.gz',
    ]);
  });
});

describe('the demo build (dist-demo/)', () => {
  it('holds the mock, in its Service Worker only', () => {
    const worker = demo.get('sw.js') ?? '';
    for (const marker of WORKER_MARKERS) expect(worker).toContain(marker);
    expect(demo.get('demo-start.js')).toContain('serviceWorker');
  });

  it('has the same portal code as the normal build', () => {
    const assets = (files: Map<string, string>) =>
      [...files].filter(([file]) => file.startsWith('assets/') && !/\.(br|gz)$/.test(file));
    expect(assets(demo)).toEqual(assets(portal));
  });

  it('reads the three mocked systems (the normal build’s config.json names one Reflexio)', () => {
    expect(demo.get('config.json')).toBe(demoConfigJson(portal.get('config.json') ?? ''));
    const sources = (JSON.parse(demo.get('config.json') ?? '{}') as { sources: { kind: string }[] })
      .sources;
    expect(sources.map((source) => source.kind)).toEqual(['reflexio', 'vertesia', 'bilby']);
    expect(JSON.parse(portal.get('config.json') ?? '{}')).toEqual(
      expect.objectContaining({ apiBaseUrl: 'api' }),
    );
  });

  it('has no precompressed copies (a static host compresses; the worker would cache them too)', () => {
    expect([...demo.keys()].filter((file) => /\.(br|gz)$/.test(file))).toEqual([]);
    expect([...portal.keys()].filter((file) => file.endsWith('.br')).length).toBeGreaterThan(3);
  });

  it('precaches every file the app may load', () => {
    const manifest = JSON.parse(demo.get('precache-manifest.json') ?? '{}') as {
      files: string[];
    };
    const expected = [...demo.keys()].filter(
      (file) =>
        !file.endsWith('.map') && !['sw.js', '404.html', 'precache-manifest.json'].includes(file),
    );
    expect(manifest.files).toEqual(expected);
    expect(manifest.files).toEqual(expect.arrayContaining(['index.html', 'demo-start.js']));
    const worker = demo.get('sw.js') ?? '';
    for (const file of manifest.files) expect(worker.includes(file), file).toBe(true);
  });

  it('starts the app from files only (no inline script) and works under any sub-path', () => {
    const index = demo.get('index.html') ?? '';
    expect(index).toContain('<base href="./" />');
    for (const page of [index, demo.get('404.html') ?? '']) {
      const tags = scripts(page);
      expect(tags.length).toBeGreaterThan(0);
      for (const tag of tags)
        expect(tag).toMatch(/^<script [^>]*src="\.\.?\/[^"]+"[^>]*><\/script>$/);
    }
    const entry = /data-entry="\.\/([^"]+)"/.exec(index)?.[1] ?? '';
    expect(demo.has(entry), `entry ${entry}`).toBe(true);
    expect(index).not.toMatch(/(href|src)="\//);
  });

  it('serves pages with the same Content-Security-Policy as the server', () => {
    expect(DEMO_CSP).toBe(contentSecurityPolicy());
  });
});
