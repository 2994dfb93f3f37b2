import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockBackend, type MockBackend } from '../../mock/app';
import { createPortalApp } from '../http/portal';
import { cookieValue, createFirstScreen, readHeaders } from './first-screen';
import { sourcesCodePreloads } from './page-html';

// The real server build of src/app/entry-server.tsx (as `npm run build` makes it), serving a
// page of the real portal app with the mock Reflexio behind it.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ssrDir = mkdtempSync(path.join(os.tmpdir(), 'qi-ssr-'));

const TEMPLATE = `<!doctype html>
<html lang="en">
  <head>
    <base href="/" />
    <link rel="preload" href="./config.json" as="fetch" crossorigin="anonymous" />
    <meta name="qi-sources-code" content="assets/inbox-source-1.js assets/system-sources-2.js" />
    <script src="./prefetch.js"></script>
    <title>Questions</title>
  </head>
  <body>
    <div id="root">
      <p class="boot-message">Loading Questions Inbox…</p>
    </div>
    <noscript>Questions Inbox needs JavaScript.</noscript>
  </body>
</html>`;

function dist(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'qi-dist-'));
  writeFileSync(path.join(dir, 'index.html'), TEMPLATE);
  writeFileSync(
    path.join(dir, 'config.json'),
    JSON.stringify({ apiBaseUrl: 'api', auth: { mode: 'proxy' } }),
  );
  return dir;
}

let mock: MockBackend;
beforeAll(async () => {
  // As `npm run build` runs it (vitest sets NODE_ENV=test, which would pick React's JSX dev runtime).
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  await build({
    root,
    logLevel: 'silent',
    build: { ssr: 'src/app/entry-server.tsx', outDir: ssrDir, sourcemap: false },
  }).finally(() => {
    process.env.NODE_ENV = nodeEnv;
  });
  mock = createMockBackend({ seed: 'demo', simulatorIntervalMs: 0, latencyMs: 0 });
}, 120_000);
afterAll(() => mock.close());

const page = (app: ReturnType<typeof createPortalApp>, address: string, headers = {}) =>
  app.request(address, { headers });

const TENANT = { cookie: 'mock_tenant=ssr-test' };

/** The portal over `distDir`, rendering every page, with the build's files (dist/assets/) beside. */
const portalOver = (distDir: string) =>
  createPortalApp({
    distDir,
    mock: mock.app,
    firstScreen: createFirstScreen({
      ssrDir,
      assetsDir: path.join(distDir, 'assets'),
      mode: 'always',
      log: () => {},
    }),
  });

describe('the first screen rendered on the server', () => {
  it('puts the rows of the address’s view and their lists in index.html', async () => {
    const asked = await mock.app.request('/__mock/questions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-mock-tenant': 'ssr-test' },
      body: JSON.stringify({
        question: 'Hostile </script><script>alert(1)</script> & <b>tags</b> in a question',
      }),
    });
    expect(asked.status).toBe(201);
    const app = createPortalApp({
      distDir: dist(),
      mock: mock.app,
      firstScreen: createFirstScreen({ ssrDir, mode: 'always', log: () => {} }),
    });
    const response = await page(app, '/questions?q=hostile', TENANT);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    // Style attributes only: still no inline script or <style>.
    expect(response.headers.get('content-security-policy')).toContain(
      "style-src-attr 'unsafe-inline'",
    );
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await response.text();
    expect(html).toContain('<meta name="qi-first-screen" content="1" />');
    // first-screen.js instead of prefetch.js (the lists are in the page); one system: no code of
    // several to ask for.
    expect(html).not.toContain('prefetch.js');
    expect(html).not.toContain('modulepreload');
    // first-screen.js asks for config.json at once: a preload of it would go unused.
    expect(html).not.toContain('config.json');
    expect(html).not.toContain('boot-message');
    // The one row the search lets through, its text escaped in the HTML…
    expect(html.match(/data-question-id=/g)).toHaveLength(1);
    expect(html).toContain('Hostile &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    // …and in the state: only the page's own JSON element, no script of anyone else's.
    const scripts = html.match(/<script[^>]*>/g) ?? [];
    expect(scripts).toEqual([
      '<script src="./first-screen.js">',
      '<script type="application/json" id="qi-first-screen">',
    ]);
    const state = /<script type="application\/json" id="qi-first-screen">([^<]*)<\/script>/.exec(
      html,
    )?.[1];
    expect(state).toBeDefined();
    const parsed = JSON.parse(state ?? '') as {
      queries: { queries: { queryKey: unknown[] }[] };
      now: number;
    };
    expect(JSON.stringify(parsed)).toContain('Hostile </script><script>alert(1)</script>');
    expect(parsed.queries.queries.length).toBeGreaterThan(0);
    // The questions only: not what the server's own render read of the team (its connection is
    // 'absent' on a server, which the browser would show until its stream opened).
    expect(parsed.queries.queries.map((query) => query.queryKey[0])).toEqual(
      parsed.queries.queries.map(() => 'questions'),
    );
  });

  it('leaves the page to the browser when asked, away from the inbox, and for a failing system', async () => {
    const app = createPortalApp({
      distDir: dist(),
      mock: mock.app,
      firstScreen: createFirstScreen({ ssrDir, mode: 'always', log: () => {} }),
    });
    const off = await (
      await page(app, '/questions', { cookie: 'mock_tenant=ssr-test; qi-first-screen=off' })
    ).text();
    expect(off).toContain('boot-message');
    const activity = await (await page(app, '/activity', TENANT)).text();
    expect(activity).toContain('boot-message');
    // Reflexio down: no rows to render, the browser asks (and says what is wrong) itself.
    await mock.app.request('/__mock/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-mock-tenant': 'ssr-down' },
      body: JSON.stringify({ kind: 'status', status: 503, count: 10 }),
    });
    const down = await (await page(app, '/questions', { cookie: 'mock_tenant=ssr-down' })).text();
    expect(down).toContain('boot-message');
  });

  it('sends the page’s <head> before it reads the lists, and the plain page’s rest when they fail', async () => {
    const app = createPortalApp({
      distDir: dist(),
      mock: mock.app,
      firstScreen: createFirstScreen({ ssrDir, mode: 'always', log: () => {} }),
    });
    // The list read is held 400 ms: the <head> comes first, on its own.
    await mock.app.request('/__mock/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-mock-tenant': 'ssr-slow' },
      body: JSON.stringify({ kind: 'latency', latencyMs: 400, count: 10 }),
    });
    const asked = performance.now();
    const response = await page(app, '/questions', { cookie: 'mock_tenant=ssr-slow' });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    const first = await reader.read();
    const headAfter = performance.now() - asked;
    const head = decoder.decode(first.value);
    expect(head).toContain('<title>Questions</title>');
    expect(head).not.toContain('</head>');
    expect(head).not.toContain('prefetch.js');
    expect(headAfter).toBeLessThan(400);
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      rest += decoder.decode(chunk.value, { stream: true });
    }
    expect(performance.now() - asked).toBeGreaterThanOrEqual(400);
    expect(rest).toContain('<script src="./first-screen.js"></script>');
    expect(rest.match(/data-question-id=/g)?.length).toBeGreaterThan(0);
    // The lists fail once the <head> is sent: the rest is the plain page's, which the browser
    // renders itself (prefetch.js asking for the lists, as without a first screen).
    await mock.app.request('/__mock/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-mock-tenant': 'ssr-broken' },
      body: JSON.stringify({ kind: 'status', status: 500, count: 10 }),
    });
    const broken = await (
      await page(app, '/questions', { cookie: 'mock_tenant=ssr-broken' })
    ).text();
    expect(broken).toContain('<script src="./prefetch.js"></script>');
    expect(broken).toContain('<link rel="preload" href="./config.json"');
    expect(broken).toContain('boot-message');
    expect(broken).not.toContain('first-screen.js');
    expect(broken.indexOf('prefetch.js')).toBeLessThan(broken.indexOf('</head>'));
  });

  it('writes first-screen.js into the page, allowed by its hash alone, and links one it cannot', async () => {
    const distDir = dist();
    const script = "(() => { window.__qiFirstScreen = 'inline'; })();";
    writeFileSync(path.join(distDir, 'first-screen.js'), script);
    const app = portalOver(distDir);
    const response = await page(app, '/questions', TENANT);
    const hash = createHash('sha256').update(script).digest('base64');
    const policy = response.headers.get('content-security-policy') ?? '';
    // That hash and nothing else beside the portal's own files.
    expect(policy.split('; ').find((directive) => directive.startsWith('script-src'))).toBe(
      `script-src 'self' 'sha256-${hash}'`,
    );
    const html = await response.text();
    expect(html).toContain(`<script>${script}</script>`);
    expect(html).not.toContain('src="./first-screen.js"');
    // A text the HTML parser would end early (a rebuild made it so): linked, as without it.
    writeFileSync(path.join(distDir, 'first-screen.js'), `${script}\n// </script>`);
    const linked = await page(app, '/questions', TENANT);
    expect(linked.headers.get('content-security-policy')).toContain("script-src 'self';");
    expect(await linked.text()).toContain('<script src="./first-screen.js"></script>');
  });

  it('renders at most `maxConcurrent` pages at once; the rest get the page without rows', async () => {
    const app = createPortalApp({
      distDir: dist(),
      mock: mock.app,
      firstScreen: createFirstScreen({ ssrDir, mode: 'always', maxConcurrent: 2, log: () => {} }),
    });
    const pages = await Promise.all(
      Array.from({ length: 12 }, async () => (await page(app, '/questions', TENANT)).text()),
    );
    const rendered = pages.filter((html) => html.includes('qi-first-screen')).length;
    expect(rendered).toBeGreaterThanOrEqual(1);
    expect(rendered).toBeLessThan(12);
    expect(pages.every((html) => html.includes('<div id="root">'))).toBe(true);
  });

  it('names the code of the parts it rendered, each file once, at the end of <head>', async () => {
    const distDir = dist();
    mkdirSync(path.join(distDir, 'assets'));
    // As the browser's build writes it (scripts/part-preloads.ts).
    writeFileSync(
      path.join(distDir, 'first-screen-code.json'),
      JSON.stringify({
        always: ['assets/lists-1.js'],
        parts: {
          HeaderTools: ['assets/tools-1.js', 'assets/shared-1.js'],
          ActedBy: ['assets/shared-1.js', 'assets/team-1.js'],
          QuestionDrawer: ['assets/drawer-1.js', 'https://elsewhere.example/x.js'],
        },
      }),
    );
    const app = portalOver(distDir);
    const named = (html: string) =>
      /<meta name="qi-first-screen-code" content="([^"]*)" \/>\s*<\/head>/.exec(html)?.[1];
    const list = await (await page(app, '/questions', TENANT)).text();
    expect(named(list)).toBe(
      'assets/lists-1.js assets/tools-1.js assets/shared-1.js assets/team-1.js',
    );
    // Named for the app to ask for, not preloaded with the page: the first download stays as it was.
    expect(list).not.toContain('modulepreload');
    // A question's address: its pane's code too (and nothing from another site).
    const id = /data-question-id="([^"]+)"/.exec(list)?.[1];
    expect(id).toBeDefined();
    const question = await (await page(app, `/questions/${id}`, TENANT)).text();
    expect(named(question)).toContain('assets/drawer-1.js');
    expect(question).not.toContain('elsewhere.example');
    // The page without rows (the browser's own render) names none of it.
    const off = await (
      await page(app, '/questions', { cookie: 'mock_tenant=ssr-test; qi-first-screen=off' })
    ).text();
    expect(off).not.toContain('qi-first-screen-code');
  });

  it('asks for the code of several systems with the page, only when the config has several', () => {
    const several = {
      config: JSON.stringify({ sources: [{ id: 'a' }, { id: 'b' }] }),
    };
    expect(sourcesCodePreloads(TEMPLATE, several)).toEqual([
      '<link rel="modulepreload" href="./assets/inbox-source-1.js" />',
      '<link rel="modulepreload" href="./assets/system-sources-2.js" />',
    ]);
    expect(
      sourcesCodePreloads(TEMPLATE, { config: JSON.stringify({ apiBaseUrl: 'api' }) }),
    ).toEqual([]);
    expect(sourcesCodePreloads(TEMPLATE, { config: '{not json' })).toEqual([]);
    // Nothing but the build's own files under assets/ goes into the page.
    const odd = TEMPLATE.replace(
      'assets/inbox-source-1.js',
      'https://elsewhere.example/x.js assets/../config.json',
    );
    expect(sourcesCodePreloads(odd, several)).toEqual([
      '<link rel="modulepreload" href="./assets/system-sources-2.js" />',
    ]);
  });

  it('reads with the page’s identity, as a same-origin fetch, and knows the preference cookies', () => {
    const request = new Request('http://portal.test/questions', {
      headers: {
        cookie: 'qi-color-scheme=dark; qi-density=compact; session=abc',
        'x-forwarded-user': 'alice',
        'sec-fetch-mode': 'navigate',
        'sec-fetch-dest': 'document',
        'accept-encoding': 'br',
        'if-none-match': '"x"',
      },
    });
    const headers = readHeaders(request);
    expect(headers.get('cookie')).toBe('qi-color-scheme=dark; qi-density=compact; session=abc');
    expect(headers.get('x-forwarded-user')).toBe('alice');
    expect(headers.get('sec-fetch-mode')).toBe('cors');
    expect(headers.get('sec-fetch-dest')).toBe('empty');
    expect(headers.get('accept-encoding')).toBeNull();
    expect(headers.get('if-none-match')).toBeNull();
    expect(cookieValue(request, 'qi-color-scheme')).toBe('dark');
    expect(cookieValue(request, 'qi-density')).toBe('compact');
    expect(cookieValue(request, 'missing')).toBeNull();
  });
});
