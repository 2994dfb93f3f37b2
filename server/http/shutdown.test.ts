import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { gracefulStop } from './shutdown';

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.closeAllConnections();
});

function slowServer(ms: number) {
  const server = createServer((req, res) => {
    if (req.url === '/fast') return res.end('fast');
    setTimeout(() => res.end('slow done'), ms);
  });
  servers.push(server);
  return new Promise<{ server: Server; port: number }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, port: (server.address() as AddressInfo).port }),
    ),
  );
}

function get(port: string | number, path: string) {
  return new Promise<string>((resolve, reject) => {
    request({ host: '127.0.0.1', port, path }, (res) => {
      let text = '';
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve(text));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** Resolves once the server holds a connection (the request is in flight). */
function connected(server: Server) {
  return new Promise<void>((resolve) => {
    const check = () =>
      server.getConnections((_error, count) => (count > 0 ? resolve() : setImmediate(check)));
    check();
  });
}

describe('gracefulStop', () => {
  it('cuts what is still open at the deadline and exits 1', async () => {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const { server, port } = await slowServer(60_000);
    const exit = vi.fn();
    const stop = gracefulStop(server, { timeoutMs: 200, exit });
    const slow = get(port, '/slow');
    await connected(server);
    stop('SIGTERM');
    await expect(slow).rejects.toThrow();
    expect(exit).toHaveBeenCalledWith(1);
    vi.restoreAllMocks();
  });

  it('a second signal exits at once', async () => {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const { server, port } = await slowServer(60_000);
    const exit = vi.fn();
    const stop = gracefulStop(server, { timeoutMs: 60_000, exit });
    void get(port, '/slow').catch(() => {});
    await connected(server);
    stop('SIGTERM');
    expect(exit).not.toHaveBeenCalled();
    stop('SIGINT');
    expect(exit).toHaveBeenCalledWith(1);
    vi.restoreAllMocks();
  });
});
