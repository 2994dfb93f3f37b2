// The audit trail's settings, read from the environment and checked strictly: a bad value is one
// line naming the setting (the caller prints it and exits).

import { databaseUrlProblem } from './db/open';
import type { AnswerMode } from './db/queries';
import { type IdentityConfig, parseHeaderName } from './identity';

export interface AuditConfig {
  identity: IdentityConfig;
  answers: AnswerMode;
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
      retentionDays,
      databaseUrl,
      dataDir: set(env.DATA_DIR) ? (env.DATA_DIR as string).trim() : 'data',
    },
  };
}
