import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { auditConfigFromEnv } from '../audit-config';
import { openPostgres } from './engine';
import { migrations } from './migrations';
import { databaseUrlProblem, lockDataDir, openTrail, redactDatabaseUrl } from './open';
import { insertAttempts, listEntries } from './queries';
import { postgresAvailable, startTestPostgres, type TestPostgres } from './test-postgres';

const attempt = (questionId: string, reviewer: string) => ({
  requestId: crypto.randomUUID(),
  reviewer,
  reviewerName: null,
  sourceId: 'reflexio',
  sourceKind: 'reflexio',
  questionId,
  action: 'answer' as const,
  answer: 'yes',
  answerMode: 'full' as const,
});

describe('the embedded trail in DATA_DIR', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'qi-data-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the trail across a restart, and refuses a second server on the same folder', async () => {
    const first = await openTrail({ dataDir: dir });
    await insertAttempts(first.db, [attempt('kept', 'alice@example.com')]);
    await expect(openTrail({ dataDir: dir })).rejects.toThrow(
      /Another portal server \(process \d+\) is using DATA_DIR .*set DATABASE_URL/,
    );
    await first.db.close();

    const again = await openTrail({ dataDir: dir });
    const { entries } = await listEntries(again.db, {}, { cursor: null, limit: 50 });
    expect(entries.map((e) => e.questionId)).toEqual(['kept']);
    await again.db.close();
  }, 120_000);

  it('takes over a lock left by a process that has died', () => {
    const lockDir = mkdtempSync(path.join(tmpdir(), 'qi-lock-'));
    // pid 2^22+1 is above Linux's default pid_max: no such process.
    writeFileSync(path.join(lockDir, 'portal.lock'), '4194305');
    const release = lockDataDir(lockDir);
    release();
    rmSync(lockDir, { recursive: true, force: true });
  });
});

describe('start-up settings', () => {
  it('names the setting that is wrong, on one line', () => {
    const bad = (env: Record<string, string>) => {
      const parsed = auditConfigFromEnv(env);
      return parsed.ok ? null : parsed.message;
    };
    expect(bad({ REVIEWER_HEADER: 'X Forwarded' })).toMatch(/^REVIEWER_HEADER must be/);
    expect(bad({ REVIEWER_NAME_HEADER: 'X-Name' })).toMatch(/^REVIEWER_NAME_HEADER is set without/);
    expect(bad({ AUDIT_ANSWERS: 'some' })).toMatch(/^AUDIT_ANSWERS must be full, hash or none/);
    expect(bad({ AUDIT_RETENTION_DAYS: '0' })).toMatch(/^AUDIT_RETENTION_DAYS must be/);
    expect(bad({ DATABASE_URL: 'mysql://x' })).toMatch(/^DATABASE_URL must start with postgres/);
    expect(auditConfigFromEnv({ REVIEWER_HEADER: 'X-Forwarded-Email' })).toMatchObject({
      ok: true,
      config: {
        identity: { header: 'x-forwarded-email', nameHeader: null },
        answers: 'full',
        retentionDays: 365,
        databaseUrl: null,
        dataDir: 'data',
      },
    });
  });

  it('never prints a database password', () => {
    expect(redactDatabaseUrl('postgres://app:s3cret@db:5432/inbox')).toBe(
      'postgres://app:***@db:5432/inbox',
    );
    expect(databaseUrlProblem('not a url :s3cret@')).toMatch(/not a valid URL/);
  });

  it('says in one line when the database cannot be reached', async () => {
    await expect(
      openTrail({ databaseUrl: 'postgres://app:s3cret@127.0.0.1:1/inbox', dataDir: 'unused' }),
    ).rejects.toThrow(
      /^The audit trail's database \(DATABASE_URL postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/inbox\) could not be used: /,
    );
  });
});

describe.skipIf(!postgresAvailable())('replicas on one PostgreSQL', () => {
  let server: TestPostgres;
  afterAll(async () => {
    await server?.stop();
  });

  it('share one trail: each sees the entries the other wrote', async () => {
    server = await startTestPostgres();
    const url = await server.createDatabase();
    // Two servers starting together both run the migrations: the advisory lock makes it once.
    const [one, two] = await Promise.all([
      openTrail({ databaseUrl: url, dataDir: 'unused' }),
      openTrail({ databaseUrl: url, dataDir: 'unused' }),
    ]);
    await insertAttempts(one.db, [attempt('from-one', 'alice@example.com')]);
    await insertAttempts(two.db, [attempt('from-two', 'bob@example.com')]);
    for (const replica of [one, two]) {
      const { entries } = await listEntries(replica.db, {}, { cursor: null, limit: 50 });
      expect(entries.map((e) => e.questionId).sort()).toEqual(['from-one', 'from-two']);
    }
    await one.db.close();
    await two.db.close();
    const check = await openPostgres(url);
    // Each step once, however many servers started together.
    const versions = await check.query<{ version: number }>(
      'SELECT version FROM schema_migrations ORDER BY version',
    );
    expect(versions.map((row) => row.version)).toEqual(migrations.map((step) => step.version));
    await check.close();
  }, 120_000);
});
