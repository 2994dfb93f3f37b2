// Inside the Service Worker there is no server in front of the mock: requests reach it the way
// the worker builds them (demo/sw.ts), with no Host of the portal's, no Origin and no
// Sec-Fetch-Site. The server's guards (server/guards.ts) belong to the server; the mock must
// neither carry a copy of them nor need anything of the server's to run in a browser.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { reflexioDemo } from './backends';

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

describe('what the worker bundles', () => {
  const runtimeFiles = (dir: string) =>
    readdirSync(path.join(root, dir))
      .filter((file) => file.endsWith('.ts') && !/\.test\.ts$|test-support\.ts$/.test(file))
      .map((file) => path.join(dir, file));

  it('imports nothing of the server and no Node built-in (mock/ and demo/ run in a browser)', () => {
    const files = [...runtimeFiles('mock'), ...runtimeFiles('demo')];
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const source = readFileSync(path.join(root, file), 'utf8');
      const imports = [...source.matchAll(/\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'/g)].map(
        (match) => match[1] ?? match[2] ?? '',
      );
      for (const specifier of imports) {
        expect(specifier, file).not.toMatch(/^(node:|\.\.\/server\/)|^(fs|path|http|crypto)$/);
      }
    }
  });
});
