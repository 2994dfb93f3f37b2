import { describe, expect, it } from 'vitest';
import { startPortalProcess } from './portal-process';

describe('startPortalProcess', () => {
  it('rejects with what the server printed when it stops before it is running', async () => {
    const started = startPortalProcess({ ...process.env, PORT: 'abc' });
    await expect(started).rejects.toThrow(/portal server exited:[\s\S]*Cannot start: PORT/);
  }, 30_000);
});
