// Real sockets for the server's hardening tests: a stand-in upstream on a random port that records
// what reached it, the portal as start.ts wires it, and requests written with node:http so every
// header is exactly as sent.
import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterEach } from 'vitest';
import { createPortalServer } from './http-server';
import { createPortalApp, type PortalOptions } from './portal';
import { withRequestLog } from './request-log';

export const HOST = 'localhost:5173';
export const MB = 1_048_576;

export const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  bytes: number;
}

/** A stand-in Reflexio that records what reached it; `answer` may reply differently. */
export async function recordingUpstream(
  answer?: (seen: Seen, res: import('node:http').ServerResponse) => void,
): Promise<{ origin: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const entry: Seen = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      bytes: 0,
    };
    seen.push(entry);
    req.on('data', (chunk: Buffer) => {
      entry.bytes += chunk.length;
    });
    req.on('end', () => {
      if (answer) return answer(entry, res);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true }));
    });
  });
  return { origin: await listen(server), seen };
}

export async function startPortal(
  options: PortalOptions,
): Promise<{ origin: string; log: string[]; requests: Record<string, unknown>[] }> {
  const log: string[] = [];
  const requests: Record<string, unknown>[] = [];
  const app = createPortalApp({ allowedHosts: [HOST], log: (line) => log.push(line), ...options });
  // The request log as start.ts wires it, into `requests` instead of stdout.
  const server = createPortalServer(getRequestListener(app.fetch), {
    maxBodyBytes: options.maxBodyBytes ?? MB,
    wrap: (listener) => withRequestLog(listener, (fields) => requests.push(fields)),
  });
  return { origin: await listen(server), log, requests };
}

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export function send(
  origin: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${origin}${options.path}`,
      { method: options.method ?? 'GET', headers: { host: HOST, ...options.headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
