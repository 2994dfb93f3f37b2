import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseFolderState, lockDataDir } from './data-dir';

const module = path.join(path.dirname(fileURLToPath(import.meta.url)), 'data-dir.ts');
const folders: string[] = [];
const children: ChildProcess[] = [];

function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'qi-dir-'));
  folders.push(dir);
  return dir;
}

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Another process that takes `dir`'s lock and says so; resolves once it holds it. */
async function holder(dir: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      "const { lockDataDir } = await import(process.argv[1]); await lockDataDir(process.argv[2]); console.log('held'); setInterval(() => {}, 60_000);",
      module,
      dir,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('held')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the holder exited (${code})`)));
  });
  return child;
}

async function killed(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

describe('the DATA_DIR lock', () => {
  it('refuses a second server while the first lives, and is free once it has let go', async () => {
    const dir = folder();
    const first = await lockDataDir(dir);
    await expect(lockDataDir(dir)).rejects.toThrow(
      /^Another portal server is using DATA_DIR .* set DATABASE_URL/,
    );
    expect(await first.held()).toBe(true);
    first.release();
    expect(existsSync(path.join(dir, 'portal.sock'))).toBe(false);
    (await lockDataDir(dir)).release();
  });

  it('is refused to this process while another holds it, and taken over once that one is killed -9', {
    timeout: 120_000,
  }, async () => {
    const dir = folder();
    const other = await holder(dir);
    await expect(lockDataDir(dir)).rejects.toThrow(/Another portal server/);
    await killed(other);
    // kill -9 leaves the socket file behind: the kernel now refuses its connections.
    expect(existsSync(path.join(dir, 'portal.sock'))).toBe(true);
    const lock = await lockDataDir(dir);
    expect(await lock.held()).toBe(true);
    lock.release();
  });

  it('goes to exactly one of two servers that find a dead lock at once', {
    timeout: 120_000,
  }, async () => {
    const dir = folder();
    await killed(await holder(dir));
    const results = await Promise.allSettled([lockDataDir(dir), lockDataDir(dir)]);
    const held = results.filter((result) => result.status === 'fulfilled');
    expect(held).toHaveLength(1);
    expect(results.find((result) => result.status === 'rejected')?.reason).toMatchObject({
      message: expect.stringMatching(/Another portal server/),
    });
    for (const result of held) result.value.release();
  });

  it('ignores the process id file of earlier versions (a container’s "1")', async () => {
    const dir = folder();
    writeFileSync(path.join(dir, 'portal.lock'), '1');
    const lock = await lockDataDir(dir);
    expect(existsSync(path.join(dir, 'portal.lock'))).toBe(false);
    lock.release();
  });
});

describe('what DATA_DIR holds', () => {
  it('makes a new trail only where there is none: an absent or empty folder', () => {
    const dir = folder();
    expect(databaseFolderState(dir)).toBe('new');
    mkdirSync(path.join(dir, 'pglite'));
    expect(databaseFolderState(dir)).toBe('new');
    mkdirSync(path.join(dir, 'lost+found'));
    expect(databaseFolderState(dir)).toBe('new');
  });

  it('refuses a database folder without PG_VERSION, and a folder that holds other files', () => {
    const damaged = folder();
    mkdirSync(path.join(damaged, 'pglite', 'base'), { recursive: true });
    expect(() => databaseFolderState(damaged)).toThrow(
      /^The embedded database in .*pglite is damaged \(no PG_VERSION\): nothing was changed\./,
    );
    // DATA_DIR pointed at the database folder itself: a new trail inside it would start empty.
    const inside = folder();
    writeFileSync(path.join(inside, 'PG_VERSION'), '17\n');
    expect(() => databaseFolderState(inside)).toThrow(
      /^DATA_DIR .* is not empty and holds no trail \(PG_VERSION\): nothing was changed\./,
    );
  });
});
