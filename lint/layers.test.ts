import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The layer rules of biome.json and lint/*.grit, run by the real Biome on files planted in a
 * temporary copy of the project's lint configuration: each import below must be refused (`wrong`)
 * or let through (`ok`) exactly as listed.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const biome = join(
  root,
  'node_modules',
  '.bin',
  process.platform === 'win32' ? 'biome.cmd' : 'biome',
);

type Case = readonly [source: string, verdict: 'wrong' | 'ok'];

const files: Record<string, Case[]> = {
  'src/lib/planted.ts': [
    ["import { a } from '@/features/questions/utils/status';", 'wrong'],
    ["import { a } from '../features/questions/utils/status';", 'wrong'],
    ["import { a } from '@/app/services';", 'wrong'],
    ["import { a } from '../app/services';", 'wrong'],
    ["import { a } from '../../mock/seed';", 'wrong'],
    ["import { a } from '../../server/start';", 'wrong'],
    ["import { a } from '../../bench/seed';", 'wrong'],
    ["import { a } from '@mock/seed';", 'wrong'],
    ["import { a } from '@/test/render';", 'wrong'],
    ["export { a } from '../features/questions/api/queries';", 'wrong'],
    ["export const a = () => import('../features/questions/components/questions-page');", 'wrong'],
    ["import { a } from '@/lib/clock';", 'ok'],
    ["import { a } from './clock';", 'ok'],
    ["import { a } from '@/config/runtime-config';", 'ok'],
    ["import { a } from '@/components/time-ago';", 'ok'],
    ["import { a } from 'react-dom/server';", 'ok'],
  ],
  'src/components/planted.tsx': [
    ["import { a } from '@/features/questions/utils/status';", 'wrong'],
    ["import { a } from '../app/router';", 'wrong'],
    ["import { a } from '@/lib/api-client';", 'ok'],
  ],
  'src/config/planted.ts': [
    ["import { a } from '@/app/services';", 'wrong'],
    ["import { a } from '../features/questions/api/source';", 'wrong'],
    ["import { a } from '../../server/start';", 'wrong'],
    ["import { a } from '@/lib/session-store';", 'ok'],
  ],
  'src/features/questions/components/planted.tsx': [
    ["import { a } from '@/app/app';", 'wrong'],
    ["import { a } from '../../../app/app';", 'wrong'],
    ["import { a } from '@/features/other/api/queries';", 'wrong'],
    ["import { a } from '@/features/questions/api/queries';", 'wrong'],
    ["import { a } from '../../other/api/queries';", 'wrong'],
    ["import { a } from '../../../../mock/seed';", 'wrong'],
    ["import { a } from '@mock/seed';", 'wrong'],
    ["export const a = () => import('../../other/components/page');", 'wrong'],
    ["import { a } from '../api/queries';", 'ok'],
    ["import { a } from './question-row';", 'ok'],
    ["import { a } from '@/lib/clock';", 'ok'],
    ["import { a } from '@/components/load-boundary';", 'ok'],
    ["import { a } from '@/config/runtime-config';", 'ok'],
    ["export const a = () => import('./question-drawer');", 'ok'],
  ],
  'src/features/questions/components/list/planted.tsx': [
    ["import { a } from '../../../other/api/queries';", 'wrong'],
    ["import { a } from '../../api/queries';", 'ok'],
    ["import { a } from '../question-row';", 'ok'],
  ],
  'src/features/questions/planted.ts': [
    ["import { a } from '../other/api/queries';", 'wrong'],
    ["import { a } from './api/queries';", 'ok'],
  ],
  'src/features/questions/components/planted.test.tsx': [
    ["import { a } from '@/app/app';", 'wrong'],
    ["import { a } from '../../../../mock/seed';", 'wrong'],
    ["import { a } from '@mock/seed';", 'ok'],
    ["import { a } from '@/test/render';", 'ok'],
  ],
  'src/app/planted.tsx': [
    ["import { a } from '../../mock/app';", 'wrong'],
    ["import { a } from '@mock/app';", 'wrong'],
    ["import { a } from '@/test/render';", 'wrong'],
    ["import { a } from '@/features/questions/components/questions-page';", 'ok'],
    ["import { a } from '@/lib/clock';", 'ok'],
  ],
  'src/test/planted.tsx': [
    ["import { a } from '@mock/app';", 'ok'],
    ["import { a } from '@/app/app';", 'ok'],
    ["import { a } from '../../server/start';", 'wrong'],
  ],
  // The server: one folder per concern; storage and the request plumbing below them.
  'server/db/planted.ts': [
    ["import { a } from '../audit/queries';", 'wrong'],
    ["import { a } from '../team/core';", 'wrong'],
    ["import { a } from '../http/portal';", 'wrong'],
    ["import { a } from '../watch/store';", 'wrong'],
    ["import { a } from './engine';", 'ok'],
    ["import { a } from '../lib/redact-url';", 'ok'],
  ],
  'server/http/planted.ts': [
    ["import { a } from '../audit/core';", 'wrong'],
    ["import { a } from '../team/types';", 'wrong'],
    ["import { a } from '../settings/settings';", 'wrong'],
    ["import { a } from '../watch/copy';", 'wrong'],
    ["import { a } from './guards';", 'ok'],
    ["import { a } from '../proxy/proxy';", 'ok'],
    ["import { a } from '../lib/log';", 'ok'],
  ],
  'server/lib/planted.ts': [
    ["import { a } from '../db/engine';", 'wrong'],
    ["import { a } from './log';", 'ok'],
  ],
  'server/audit/planted.ts': [
    ["import { a } from '../../src/lib/clock';", 'wrong'],
    ["import { a } from '@/lib/clock';", 'wrong'],
    ["import { a } from '../db/engine';", 'ok'],
    ["import { a } from '../http/forward-hook';", 'ok'],
  ],
  'server/notify/planted.ts': [
    ["import { a } from '../audit/core';", 'wrong'],
    ["import { a } from '../settings/settings';", 'wrong'],
    ["import { a } from '../http/portal';", 'wrong'],
    ["import { a } from '../../mock/app';", 'wrong'],
    ["import { a } from '../watch/store';", 'ok'],
    ["import { a } from '../db/engine';", 'ok'],
  ],
  'server/http/planted.test.ts': [["import { a } from '../audit/sql';", 'ok']],
};

/** Two server files that import each other: the linter names the cycle. */
const cycle: Record<string, string> = {
  'server/team/cycle-a.ts': "import { b } from './cycle-b';\nexport const a = () => b;\n",
  'server/team/cycle-b.ts': "import { a } from './cycle-a';\nexport const b = () => a;\n",
};

interface Diagnostic {
  category: string;
  message: string;
  location: { path: string; start: { line: number } };
}

let dir: string;
let diagnostics: Diagnostic[];
let cycles: Diagnostic[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'layers-'));
  await cp(join(root, 'biome.json'), join(dir, 'biome.json'));
  await cp(join(root, 'lint'), join(dir, 'lint'), {
    recursive: true,
    filter: (path) => !path.endsWith('.test.ts'),
  });
  for (const [path, cases] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    // One import per line, each binding its own name so no other rule has a say.
    const body = cases.map(([source], i) => source.replace(/\ba\b/g, `a${i}`)).join('\n');
    await writeFile(join(dir, path), `${body}\n`);
  }
  for (const [path, body] of Object.entries(cycle)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), body);
  }
  const run = await promisify(execFile)(
    biome,
    ['lint', '--vcs-enabled=false', '--reporter=json', '--max-diagnostics=none', 'src', 'server'],
    { cwd: dir },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const all = (JSON.parse(run.stdout) as { diagnostics: Diagnostic[] }).diagnostics;
  diagnostics = all.filter(
    (d) => d.category === 'plugin' || d.category === 'lint/style/noRestrictedImports',
  );
  cycles = all.filter((d) => d.category === 'lint/suspicious/noImportCycles');
}, 60_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the layers are enforced by the linter', () => {
  for (const [path, cases] of Object.entries(files)) {
    it(`${path}: refuses exactly the wrong imports`, () => {
      const refused = new Set(
        diagnostics.filter((d) => d.location.path === path).map((d) => d.location.start.line),
      );
      const verdicts = cases.map(([source], i) => [source, refused.has(i + 1) ? 'wrong' : 'ok']);
      expect(verdicts).toEqual(cases.map(([source, verdict]) => [source, verdict]));
    });
  }

  it('refuses server files that import each other', () => {
    expect(cycles.map((d) => d.location.path).sort()).toEqual(Object.keys(cycle).sort());
  });

  it('says why, in words', () => {
    const messages = new Set(diagnostics.map((d) => d.message));
    expect(messages.size).toBeGreaterThanOrEqual(5);
    for (const message of messages) expect(message.length).toBeGreaterThan(60);
  });
});
