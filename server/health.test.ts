import { describe, expect, it } from 'vitest';
import { createPortalApp } from './portal';

describe('/healthz', () => {
  it('answers 200 JSON at the root and under the base path, with no credentials', async () => {
    const app = createPortalApp({
      basePath: '/agents/inbox/',
      upstream: { url: 'http://127.0.0.1:9' },
    });
    for (const url of ['http://localhost/healthz', 'http://localhost/agents/inbox/healthz']) {
      const res = await app.request(url);
      expect(res.status, url).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok' });
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });
});
