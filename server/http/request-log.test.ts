import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMockBackend } from '../../mock/app';
import { logJson } from '../lib/log';
import { createPortalApp } from './portal';
import { pathOnly, withRequestLog } from './request-log';

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

async function serveLogged(lines: Record<string, unknown>[]) {
  const mock = createMockBackend({ seed: 'demo', simulatorIntervalMs: 0 });
  const portal = createPortalApp({ mock: mock.app });
  const server = createServer(
    withRequestLog(getRequestListener(portal.fetch), (fields) => lines.push(fields)),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => {
    server.close();
    mock.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function get(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; bytes: number }>((resolve, reject) => {
    request(url, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
    })
      .on('error', reject)
      .end();
  });
}

describe('request log', () => {
  it('logs method, path without the query, status, time and bytes sent, and no secrets', async () => {
    const lines: Record<string, unknown>[] = [];
    const origin = await serveLogged(lines);
    const response = await get(`${origin}/api/pending_tool_calls?limit=50&token=secret-in-query`, {
      Authorization: 'Bearer secret-in-header',
      Cookie: 'session=secret-in-cookie',
      'Accept-Encoding': 'gzip',
    });
    await vi.waitFor(() => expect(lines).toHaveLength(1));
    const line = lines[0] as Record<string, unknown>;
    expect(line).toMatchObject({ method: 'GET', path: '/api/pending_tool_calls', status: 200 });
    expect(line.bytes).toBe(response.bytes);
    expect(typeof line.ms).toBe('number');
    expect(Object.keys(line).sort()).toEqual(['bytes', 'method', 'ms', 'path', 'status']);
    expect(JSON.stringify(line)).not.toMatch(/secret|Bearer|limit/);
  });

  it('logs failures and unknown paths too', async () => {
    const lines: Record<string, unknown>[] = [];
    const origin = await serveLogged(lines);
    await get(`${origin}/api/pending_tool_calls/nope#frag`, {});
    await vi.waitFor(() => expect(lines).toHaveLength(1));
    expect(lines[0]).toMatchObject({ path: '/api/pending_tool_calls/nope', status: 404 });
  });

  it('pathOnly drops the query and fragment', () => {
    expect(pathOnly('/a/b?c=d#e')).toBe('/a/b');
    expect(pathOnly('/a#b?c')).toBe('/a');
    expect(pathOnly(undefined)).toBe('/');
  });

  it('logJson writes one JSON object per line to stdout', () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      logJson({ method: 'GET', path: '/x' });
      const [text] = write.mock.calls[0] as [string];
      expect(text.endsWith('\n')).toBe(true);
      expect(text.trim().split('\n')).toHaveLength(1);
      expect(JSON.parse(text)).toMatchObject({ method: 'GET', path: '/x' });
      expect(typeof JSON.parse(text).time).toBe('string');
    } finally {
      write.mockRestore();
    }
  });
});
