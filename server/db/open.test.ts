import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { auditConfigFromEnv } from '../audit/config';
import { insertAttempts, listEntries } from '../audit/queries';
import { openPostgres } from './engine';
import { migrations } from './migrations';
import { databaseUrlProblem, openTrail, redactDatabaseUrl, TrailOpenError } from './open';
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

/** Every file under `dir` with its size and time: what "untouched" means. */
function listing(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .sort()
    .map((name) => {
      const stat = statSync(path.join(dir, name));
      return `${name} ${stat.isDirectory() ? 'dir' : stat.size} ${stat.mtimeMs}`;
    });
}

describe('the embedded trail in DATA_DIR', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'qi-data-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the trail across a restart, and refuses a second server on the same folder', async () => {
    const first = await openTrail({ dataDir: dir });
    await insertAttempts(first.db, [attempt('kept', 'alice@example.com')]);
    await expect(openTrail({ dataDir: dir })).rejects.toThrow(
      /Another portal server is using DATA_DIR .*set DATABASE_URL/,
    );
    await first.db.close();

    const again = await openTrail({ dataDir: dir });
    const { entries } = await listEntries(again.db, {}, { cursor: null, limit: 50 });
    expect(entries.map((e) => e.questionId)).toEqual(['kept']);
    await again.db.close();
  }, 300_000);

  it('refuses to start on a trail it cannot open as it is, and leaves it untouched', async () => {
    // On main, PGlite took the folder without PG_VERSION for a new one: an empty trail started.
    rmSync(path.join(dir, 'pglite', 'PG_VERSION'));
    const before = listing(dir);
    const refused = await openTrail({ dataDir: dir }).then(
      async (opened) => {
        await opened.db.close();
        return null;
      },
      (error: unknown) => error as Error,
    );
    expect(refused).toBeInstanceOf(TrailOpenError);
    expect(refused?.message).toMatch(
      /^The embedded database in .* is damaged \(no PG_VERSION\): nothing was changed\./,
    );
    expect(refused?.message).not.toContain('\n');
    expect(listing(dir)).toEqual(before);
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
      'postgres://***@db:5432/inbox',
    );
    expect(databaseUrlProblem('not a url :s3cret@')).toMatch(/not a valid URL/);
    expect(databaseUrlProblem('not a url :s3cret@')).not.toContain('s3cret');
  });

  // `#`, `?`, `/` make a URL parser end the user information early, `@` makes a naive one end it
  // late: each printed part of the password (on main: "p#ss…" whole, "…@ss…" after the first @).
  const secretUrls = [
    'postgres://app:S3cr#tpw@127.0.0.1:1/inbox',
    'postgres://app:S3cr?tpw@127.0.0.1:1/inbox',
    'postgres://app:S3cr@tpw@127.0.0.1:1/inbox',
    'postgres://app:S3cr/tpw@127.0.0.1:1/inbox',
    'postgres://app:S3cr%23tpw@127.0.0.1:1/inbox',
    'postgres://app@127.0.0.1:1/inbox?password=S3cr_tpw&sslmode=disable',
  ];

  it('never prints a password, whatever it holds: not in a refusal, not in a start-up line', () => {
    for (const url of secretUrls) {
      const problem = auditConfigFromEnv({ DATABASE_URL: url });
      const said = problem.ok ? redactDatabaseUrl(url) : problem.message;
      expect(said).not.toMatch(/S3cr|tpw/);
    }
  });

  it('never prints a password in the error of a database that cannot be reached', async () => {
    for (const url of secretUrls) {
      const error = await openTrail({ databaseUrl: url, dataDir: 'unused' }).catch(
        (e: unknown) => e as Error,
      );
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(
        /^The audit trail's database \(DATABASE_URL postgres:\/\/\*\*\*@/,
      );
      expect((error as Error).message).not.toMatch(/S3cr|tpw/);
    }
  });

  it('says in one line when the database cannot be reached', async () => {
    await expect(
      openTrail({ databaseUrl: 'postgres://app:s3cret@127.0.0.1:1/inbox', dataDir: 'unused' }),
    ).rejects.toThrow(
      /^The audit trail's database \(DATABASE_URL postgres:\/\/\*\*\*@127\.0\.0\.1:1\/inbox\) could not be used: /,
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
