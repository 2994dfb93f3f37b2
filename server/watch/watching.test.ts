// The watcher as the server runs it, across replicas: one replica serves the Reflexio mock and
// answers browsers from the copy; another replica reaches Reflexio through it (REFLEXIO_URL), as
// e2e/team-replicas.spec.ts and e2e/watch-replicas.spec.ts run them. Whichever holds the lease
// must read the system itself, never the copy it writes.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMockBackend } from '../../mock/app';
import type { Db } from '../db/engine';
import { withEmbeddedDb } from '../db/test-db';
import { createPortalApp } from '../http/portal';
import { COPY_VERSION_HEADER } from './copy';
import { readSystem } from './read';
import { watchedSystems } from './systems';
import { createWatching } from './watching';

let db: Db;
withEmbeddedDb((opened) => {
  db = opened;
});

const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});
beforeEach(async () => {
  for (const table of ['watch_sources', 'watch_units', 'watch_changes', 'watched_questions']) {
    await db.query(`DELETE FROM ${table}`);
  }
});

/** Replica A: the Reflexio mock, its watcher (not started: `readNow` reads), its portal. */
async function replicaServingTheMock() {
  const mock = createMockBackend({ seed: 'empty', simulatorIntervalMs: 0 });
  closers.push(mock.close);
  const watching = createWatching({
    db,
    databaseUrl: null,
    systems: [{ id: 'reflexio', kind: 'reflexio', name: 'Reflexio', mock: mock.app }],
    intervalMs: 60_000,
    send: () => {},
    log: () => {},
  });
  closers.push(() => watching.close());
  const app = createPortalApp({
    mock: mock.app,
    fromCopy: (read) => watching.fromCopy(read),
    log: () => {},
  });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const ask = async (question: string): Promise<string> => {
    const reply = await fetch(`${url}/__mock/questions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question, expires_in_seconds: 600 }),
    });
    return ((await reply.json()) as { call: { id: string } }).call.id;
  };
  return { url, watching, ask };
}

describe('a watcher reading a system through another replica', () => {
  it('gets the system’s own list, while browsers get the copy', async () => {
    const a = await replicaServingTheMock();
    await a.watching.readNow();
    const id = await a.ask('Rotate the signing key?');

    // A browser's read is answered from A's copy, read before the question was asked.
    const browser = await fetch(`${a.url}/api/pending_tool_calls?limit=500`);
    expect(browser.headers.get(COPY_VERSION_HEADER)).not.toBeNull();
    expect(await browser.text()).not.toContain(id);

    // Replica B's watcher, holding the lease, reads Reflexio at A (REFLEXIO_URL=A, with a key).
    const [reflexio] = watchedSystems([
      {
        id: 'reflexio',
        kind: 'reflexio',
        name: 'Reflexio',
        upstream: { url: a.url, apiKey: 'replica-b-key' },
      },
    ]);
    if (!reflexio) throw new Error('B holds the key: it watches Reflexio');
    const read = await readSystem(reflexio);
    expect(read.order).toContain(id);
  });
});
