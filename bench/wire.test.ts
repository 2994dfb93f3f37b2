import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { describe, expect, it } from 'vitest';
import { findNginx, NGINX_MISSING } from '../e2e/proxy/harness';
import { describeWire, documentedCompression, measureWire } from './wire';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const nginx = findNginx();
if (!nginx && process.env.CI) throw new Error(NGINX_MISSING);

describe('the first page’s JS and CSS on the wire', () => {
  it('reads the compression settings from the documented nginx configuration', () => {
    expect(documentedCompression()).toContain('gzip on;');
  });

  it.skipIf(!nginx)(
    'the portal’s server sends brotli and no more than 105 % of what nginx sends',
    { timeout: 240_000 },
    async () => {
      const outDir = await mkdtemp(path.join(os.tmpdir(), 'qi-wire-'));
      const nodeEnv = process.env.NODE_ENV;
      process.env.NODE_ENV = 'production';
      try {
        await build({
          root,
          configFile: path.join(root, 'vite.config.ts'),
          logLevel: 'warn',
          build: { outDir, emptyOutDir: true },
        });
        process.env.NODE_ENV = nodeEnv;
        const wire = await measureWire(outDir, nginx as string);
        console.log(describeWire(wire));
        expect(wire.files.length).toBeGreaterThan(1);
        // Files under 1 KB go as they are from both (nginx's gzip_min_length 1024).
        for (const file of wire.files) {
          const small = statSync(path.join(outDir, file)).size < 1024;
          expect(wire.portal.encodings[file], file).toBe(small ? 'identity' : 'br');
        }
        expect(Object.values(wire.portal.encodings)).toContain('br');
        expect(wire.portal.js).toBeLessThanOrEqual(wire.nginx.js * 1.05);
        expect(wire.portal.css).toBeLessThanOrEqual(wire.nginx.css * 1.05);
      } finally {
        process.env.NODE_ENV = nodeEnv;
        await rm(outDir, { recursive: true, force: true });
      }
    },
  );
});
