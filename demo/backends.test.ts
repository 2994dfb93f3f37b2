// Inside the Service Worker there is no server in front of the mock: requests reach it the way
// the worker builds them (demo/sw.ts), with no Host of the portal's, no Origin and no
// Sec-Fetch-Site. The server's guards (server/http/guards.ts) belong to the server; the mock must
// neither carry a copy of them nor need anything of the server's to run in a browser.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BILBY_ORGANIZATION_ID, bilbyDemoIds } from '../mock/bilby/seed';
import { VERTESIA_API_VERSION } from '../mock/vertesia/app';
import { vertesiaDemoIds } from '../mock/vertesia/seed';
import {
  bilbyDemo,
  type DemoBackend,
  demoBackends,
  reflexioDemo,
  route,
  vertesiaDemo,
} from './backends';
import { DEMO_SOURCES, demoConfigJson } from './config';
import { PORTAL_RESET_PATH, RESET_PATHS } from './reset-paths';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** What the worker hands the mock: its own path on the page's origin, the page's headers. */
function asTheWorkerSendsIt(path: string, init: RequestInit = {}): Request {
  return new Request(new URL(path, 'https://someone.github.io'), init);
}

describe('the mock as the demo’s worker runs it', () => {
  it('takes writes, edits, not applicable, cancel and reset with no Host, Origin or Sec-Fetch-Site', async () => {
    const demo = reflexioDemo();
    const list = await demo.fetch(asTheWorkerSendsIt('/api/pending_tool_calls?status=pending'));
    expect(list.status).toBe(200);
    const { pending_tool_calls: calls } = (await list.json()) as {
      pending_tool_calls: { id: string; tool_name: string }[];
    };
    const asks = calls.filter((call) => call.tool_name === 'ask_human');
    expect(asks.length).toBeGreaterThan(3);
    const [first, second, third] = asks.map((call) => call.id) as [string, string, string];
    const json = { 'content-type': 'application/json' };
    const post = (url: string, body: unknown, method = 'POST') =>
      demo.fetch(asTheWorkerSendsIt(url, { method, headers: json, body: JSON.stringify(body) }));

    const answered = await post(`/api/pending_tool_calls/${first}/resolve`, {
      result: { answer: 'Yes, go ahead' },
    });
    expect(answered.status).toBe(200);
    const edited = await post(
      `/api/pending_tool_calls/${first}/answer`,
      { answer: 'No, wait' },
      'PATCH',
    );
    expect(edited.status).toBe(200);
    expect((await post(`/api/pending_tool_calls/${second}/not_applicable`, {})).status).toBe(200);
    expect((await post(`/api/pending_tool_calls/${third}/cancel`, {})).status).toBe(200);

    const reset = await post('/__mock/reset', {});
    expect(reset.status).toBe(200);
    const again = await demo.fetch(asTheWorkerSendsIt(`/api/pending_tool_calls/${first}`));
    expect(((await again.json()) as { status: string }).status).toBe('pending');
  });
});

/** A path under the demo's root, as the worker routes it to a backend (the page's own request). */
async function viaWorker(
  backends: readonly DemoBackend[],
  path: string,
  init: RequestInit = {},
): Promise<Response> {
  const [pathname, search = ''] = path.split('?');
  const routed = route(backends, pathname ?? '');
  if (!routed) throw new Error(`no backend answers ${path}`);
  return routed.backend.fetch(
    asTheWorkerSendsIt(`${routed.path}${search ? `?${search}` : ''}`, init),
  );
}

const postJson = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('the three systems in the demo', () => {
  it('routes each source of the demo’s config.json to its own mock, under its own prefix', () => {
    const backends = demoBackends();
    expect(backends.map((backend) => backend.name)).toEqual(['reflexio', 'vertesia', 'bilby']);
    for (const source of DEMO_SOURCES) {
      expect(route(backends, `${source.apiBaseUrl}/anything`)?.backend.name).toBe(source.kind);
    }
    expect(route(backends, 'vertesia/api/v1/pending-asks')?.path).toBe('/api/v1/pending-asks');
    expect(route(backends, 'bilby/__mock/state')?.path).toBe('/__mock/state');
    expect(route(backends, 'api/pending_tool_calls')?.path).toBe('/api/pending_tool_calls');
    expect(route(backends, 'questions')).toBeNull();
    expect(route(backends, 'vertesiax/api')).toBeNull();
  });

  it('config.json keeps the production settings and names the three sources', () => {
    const config = JSON.parse(
      demoConfigJson(readFileSync(path.join(root, 'public/config.json'), 'utf8')),
    ) as Record<string, unknown>;
    expect(config.apiBaseUrl).toBeUndefined();
    expect(config).toMatchObject({ pollIntervalMs: 10000, auth: { mode: 'proxy' } });
    expect(config.sources).toEqual(DEMO_SOURCES);
    expect(DEMO_SOURCES[1].apiVersion).toBe(VERTESIA_API_VERSION);
    expect(DEMO_SOURCES[2].organizationId).toBe(BILBY_ORGANIZATION_ID);
  });

  it('answers a Vertesia ask and a Bilby question; Reset demo brings all three back', async () => {
    const backends = demoBackends();
    const vertesia = { 'x-api-version': '20260803', 'content-type': 'application/json' };
    const asked = await viaWorker(
      backends,
      `vertesia/api/v1/pending-asks/${vertesiaDemoIds.refund}/resolve`,
      {
        method: 'POST',
        headers: vertesia,
        body: JSON.stringify({ response: 'Approve it' }),
      },
    );
    expect(asked.status).toBe(200);
    const org = `organizationId=${DEMO_SOURCES[2].organizationId}`;
    const answered = await viaWorker(
      backends,
      `bilby/api/v1/conversations/${bilbyDemoIds.naming}/tool-outputs?${org}`,
      postJson({
        outputs: [
          {
            toolCallId: bilbyDemoIds.namingCall,
            output: { status: 'dismissed', answers: [], summary: 'Not applicable' },
          },
        ],
      }),
    );
    expect(answered.status).toBe(202);
    // The seed's busy conversation is busy in the demo too.
    const busy = await viaWorker(
      backends,
      `bilby/api/v1/conversations/${bilbyDemoIds.busy}?${org}`,
    );
    expect(((await busy.json()) as { status: string }).status).toBe('running');

    // Reset demo posts to every backend's reset, each reached once (and to the portal's own,
    // which no backend answers: demo/portal.test.ts).
    const mockResets = RESET_PATHS.filter((reset) => reset !== PORTAL_RESET_PATH);
    expect(route(backends, PORTAL_RESET_PATH)).toBeNull();
    const reached = mockResets.map((reset) => route(backends, reset)?.backend.name);
    expect(reached.sort()).toEqual(backends.map((backend) => backend.name).sort());
    for (const reset of mockResets)
      expect((await viaWorker(backends, reset, postJson({}))).status).toBe(200);
    const ask = await viaWorker(
      backends,
      `vertesia/api/v1/pending-asks/${vertesiaDemoIds.refund}`,
      {
        headers: vertesia,
      },
    );
    expect(((await ask.json()) as { status: string }).status).toBe('pending');
    const conversation = await viaWorker(
      backends,
      `bilby/api/v1/conversations/${bilbyDemoIds.naming}?${org}`,
    );
    expect(
      ((await conversation.json()) as { pendingQuestions: unknown[] }).pendingQuestions,
    ).toHaveLength(1);
  });

  it('each backend takes back its own snapshot and refuses another’s', () => {
    const backends = [reflexioDemo(), vertesiaDemo(), bilbyDemo()];
    for (const [index, backend] of backends.entries()) {
      const fresh = demoBackends()[index] as DemoBackend;
      expect(fresh.restore(JSON.parse(JSON.stringify(backend.snapshot()))), backend.name).toBe(
        true,
      );
      const other = backends[(index + 1) % backends.length] as DemoBackend;
      expect(fresh.restore(JSON.parse(JSON.stringify(other.snapshot()))), backend.name).toBe(false);
      expect(fresh.restore({ saved: 'long ago' }), backend.name).toBe(false);
    }
  });
});

describe('what the worker bundles', () => {
  const runtimeFiles = (dir: string) =>
    readdirSync(path.join(root, dir))
      .filter((file) => file.endsWith('.ts') && !/\.test\.ts$|test-support\.ts$/.test(file))
      .map((file) => path.join(dir, file));

  /** The modules a file imports at run time (`import type` is gone once built). */
  const runtimeImports = (source: string) =>
    [
      ...source.matchAll(
        /^\s*(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'/gm,
      ),
    ].map((match) => match[1] ?? match[2] ?? '');

  it('imports no Node built-in, and of the server only the modules it shares (mock/ and demo/ run in a browser)', () => {
    const files = [
      ...runtimeFiles('mock'),
      ...runtimeFiles('mock/vertesia'),
      ...runtimeFiles('mock/bilby'),
      ...runtimeFiles('demo'),
    ];
    expect(files.length).toBeGreaterThan(10);
    // Every module of the server the worker reaches, followed import by import.
    const shared = new Set<string>();
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(path.join(root, file), 'utf8');
      for (const specifier of runtimeImports(source)) {
        expect(specifier, file).not.toMatch(/^node:|^(fs|path|http|crypto|os|net)$/);
        if (!specifier.startsWith('.')) continue;
        const target = path.join(path.dirname(file), `${specifier}.ts`);
        if (target.startsWith('server/')) shared.add(target);
        if (!target.startsWith('demo/') || !/\.test\.ts$/.test(target)) visit(target);
      }
      // Node's globals are not there either.
      expect(source, file).not.toMatch(/\bBuffer\.|\bprocess\.|\bsetImmediate\(/);
    };
    for (const file of files) visit(file);
    // The headers every mock answer gets, the trail's and the team's logic and what they use:
    // shared with the server, never copied (docs/mock.md).
    expect([...shared].sort()).toEqual([
      'server/audit/actions.ts',
      'server/audit/answer.ts',
      'server/audit/core.ts',
      'server/audit/csv.ts',
      'server/audit/limits.ts',
      'server/audit/memory-trail.ts',
      'server/audit/query.ts',
      'server/audit/types.ts',
      'server/http/api-response.ts',
      'server/http/body-limit.ts',
      'server/http/guards.ts',
      'server/identity/identity.ts',
      'server/insights/core.ts',
      'server/insights/memory.ts',
      'server/lib/message.ts',
      'server/snippets/core.ts',
      'server/snippets/memory.ts',
      'server/snippets/types.ts',
      'server/team/core.ts',
      'server/team/link.ts',
      'server/team/memory-claims.ts',
      'server/team/requests.ts',
      'server/team/streams.ts',
      'server/team/types.ts',
    ]);
  });
});
