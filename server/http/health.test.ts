import { describe, expect, it } from 'vitest';
import type { Readiness } from './health';
import { createPortalApp } from './portal';

describe('/healthz and /readyz', () => {
  it('answers 200 JSON at the root and under the base path, with no credentials', async () => {
    const app = createPortalApp({
      basePath: '/agents/inbox/',
      upstream: { url: 'http://127.0.0.1:9' },
    });
    for (const url of [
      'http://localhost/healthz',
      'http://localhost/agents/inbox/healthz',
      'http://localhost/readyz',
      'http://localhost/agents/inbox/readyz',
    ]) {
      const res = await app.request(url);
      expect(res.status, url).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok' });
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('/readyz says degraded, with what, while the server cannot do all its work; /healthz stays 200', async () => {
    let readiness: Readiness = { ok: false, problems: ['The link is down.'] };
    const app = createPortalApp({
      basePath: '/agents/inbox/',
      upstream: { url: 'http://127.0.0.1:9' },
      ready: () => readiness,
    });
    for (const url of ['http://localhost/readyz', 'http://localhost/agents/inbox/readyz']) {
      const res = await app.request(url);
      expect(res.status, url).toBe(503);
      expect(await res.json()).toEqual({ status: 'degraded', problems: ['The link is down.'] });
    }
    expect((await app.request('http://localhost/healthz')).status).toBe(200);
    readiness = { ok: true, problems: [] };
    expect((await app.request('http://localhost/readyz')).status).toBe(200);
  });
});
