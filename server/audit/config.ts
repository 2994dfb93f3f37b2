// The audit trail's settings, read from the environment and checked strictly: a bad value is one
// line naming the setting (the caller prints it and exits).

import { databaseUrlProblem } from '../db/open';
import { type IdentityConfig, parseHeaderName } from '../identity/identity';
import type { AnswerMode } from './answer';
import { DEFAULT_ANSWER_MAX_BYTES } from './answer';
import { DEFAULT_WRITES_PER_MINUTE } from './limits';

export interface AuditConfig {
  identity: IdentityConfig;
  answers: AnswerMode;
  /** AUDIT_HASH_KEY: the HMAC key of `hash`; null to use the one kept in the database. */
  hashKey: string | null;
  /** AUDIT_ANSWER_MAX_BYTES: how much of an answer `full` keeps. */
  answerMaxBytes: number;
  /** AUDIT_WRITES_PER_MINUTE: entries one reviewer may add a minute. */
  writesPerMinute: number;
  retentionDays: number;
  databaseUrl: string | null;
  dataDir: string;
}

export const DEFAULT_RETENTION_DAYS = 365;
const MAX_RETENTION_DAYS = 36_500;

export function auditConfigFromEnv(
  env: Record<string, string | undefined>,
): { ok: true; config: AuditConfig } | { ok: false; message: string } {
  const fail = (message: string) => ({ ok: false as const, message });
  const set = (value: string | undefined) => value !== undefined && value.trim() !== '';

  const header = parseHeaderName(env.REVIEWER_HEADER);
  if (set(env.REVIEWER_HEADER) && !header) {
    return fail(
      `REVIEWER_HEADER must be an HTTP header name such as X-Forwarded-Email, not "${env.REVIEWER_HEADER}".`,
    );
  }
  const nameHeader = parseHeaderName(env.REVIEWER_NAME_HEADER);
  if (set(env.REVIEWER_NAME_HEADER) && !nameHeader) {
    return fail(
      `REVIEWER_NAME_HEADER must be an HTTP header name such as X-Forwarded-User, not "${env.REVIEWER_NAME_HEADER}".`,
    );
  }
  if (nameHeader && !header) {
    return fail('REVIEWER_NAME_HEADER is set without REVIEWER_HEADER: set both, or neither.');
  }

  const answers = (env.AUDIT_ANSWERS ?? 'full').trim() || 'full';
  if (answers !== 'full' && answers !== 'hash' && answers !== 'none') {
    return fail(`AUDIT_ANSWERS must be full, hash or none, not "${env.AUDIT_ANSWERS}".`);
  }

  const whole = (
    name: string,
    raw: string | undefined,
    fallback: number,
    min: number,
    max: number,
  ) => {
    if (!set(raw)) return fallback;
    const value = /^\s*\d+\s*$/.test(raw as string) ? Number(raw) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      return `${name} must be a whole number from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}, not "${raw}".`;
    }
    return value;
  };
  const answerMaxBytes = whole(
    'AUDIT_ANSWER_MAX_BYTES',
    env.AUDIT_ANSWER_MAX_BYTES,
    DEFAULT_ANSWER_MAX_BYTES,
    256,
    1_048_576,
  );
  if (typeof answerMaxBytes === 'string') return fail(answerMaxBytes);
  const writesPerMinute = whole(
    'AUDIT_WRITES_PER_MINUTE',
    env.AUDIT_WRITES_PER_MINUTE,
    DEFAULT_WRITES_PER_MINUTE,
    10,
    100_000,
  );
  if (typeof writesPerMinute === 'string') return fail(writesPerMinute);
  const hashKey = set(env.AUDIT_HASH_KEY) ? (env.AUDIT_HASH_KEY as string) : null;
  if (hashKey !== null && new TextEncoder().encode(hashKey).byteLength < 32) {
    return fail(
      'AUDIT_HASH_KEY must be at least 32 bytes (e.g. `openssl rand -hex 32`); its value is not shown.',
    );
  }

  let retentionDays = DEFAULT_RETENTION_DAYS;
  if (set(env.AUDIT_RETENTION_DAYS)) {
    const value = Number(env.AUDIT_RETENTION_DAYS);
    if (!Number.isSafeInteger(value) || value < 1 || value > MAX_RETENTION_DAYS) {
      return fail(
        `AUDIT_RETENTION_DAYS must be a whole number from 1 to ${MAX_RETENTION_DAYS}, not "${env.AUDIT_RETENTION_DAYS}".`,
      );
    }
    retentionDays = value;
  }

  const databaseUrl = set(env.DATABASE_URL) ? (env.DATABASE_URL as string).trim() : null;
  if (databaseUrl) {
    const problem = databaseUrlProblem(databaseUrl);
    if (problem) return fail(problem);
  }

  return {
    ok: true,
    config: {
      identity: { header, nameHeader },
      answers,
      hashKey,
      answerMaxBytes,
      writesPerMinute,
      retentionDays,
      databaseUrl,
      dataDir: set(env.DATA_DIR) ? (env.DATA_DIR as string).trim() : 'data',
    },
  };
}
