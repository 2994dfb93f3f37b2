// Claims in the database (both engines): taken under a lock per reviewer, dropped, listed, pruned.
import type { Db, Queryable } from '../db/engine';
import type { Claim, ClaimResult } from './types';

interface ClaimRow {
  source_id: string;
  question_id: string;
  reviewer: string;
  reviewer_name: string | null;
  claimed_at: Date | string;
  expires_at: Date | string;
}

function toClaim(row: ClaimRow): Claim {
  return {
    sourceId: row.source_id,
    questionId: row.question_id,
    reviewer: row.reviewer,
    reviewerName: row.reviewer_name,
    claimedAt: new Date(row.claimed_at).toISOString(),
    expiresAt: new Date(row.expires_at).toISOString(),
  };
}

/**
 * Claims a question for `reviewer` for `minutes` (renews their own claim). Refused while someone
 * else's unexpired claim holds it, or when the reviewer already holds `maxClaims` others. The count
 * and the insert run in one transaction under a lock per reviewer: two requests at once (two tabs,
 * two replicas) cannot both see room for one more claim.
 */
export async function takeClaim(
  db: Pick<Db, 'transaction'>,
  claim: { sourceId: string; questionId: string; reviewer: string; reviewerName: string | null },
  minutes: number,
  maxClaims: number,
): Promise<ClaimResult> {
  for (;;) {
    const result = await db.transaction(async (tx): Promise<ClaimResult | null> => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`claims\n${claim.reviewer}`]);
      const [count] = await tx.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM claims WHERE reviewer = $1 AND expires_at > now()
           AND NOT (source_id = $2 AND question_id = $3)`,
        [claim.reviewer, claim.sourceId, claim.questionId],
      );
      const held = Number(count?.n ?? 0);
      if (held >= maxClaims) return { ok: false, reason: 'limit', held };
      const rows = await tx.query<ClaimRow>(
        `INSERT INTO claims (source_id, question_id, reviewer, reviewer_name, expires_at)
         VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5::double precision))
         ON CONFLICT (source_id, question_id) DO UPDATE
           SET reviewer = EXCLUDED.reviewer, reviewer_name = EXCLUDED.reviewer_name,
               claimed_at = EXCLUDED.claimed_at, expires_at = EXCLUDED.expires_at
           WHERE claims.expires_at <= now() OR claims.reviewer = EXCLUDED.reviewer
         RETURNING *`,
        [claim.sourceId, claim.questionId, claim.reviewer, claim.reviewerName, minutes * 60],
      );
      if (rows[0]) return { ok: true, claim: toClaim(rows[0]) };
      const holder = await tx.query<ClaimRow>(
        'SELECT * FROM claims WHERE source_id = $1 AND question_id = $2',
        [claim.sourceId, claim.questionId],
      );
      // Gone between the insert and the look (released meanwhile): try again.
      return holder[0] ? { ok: false, reason: 'held', holder: toClaim(holder[0]) } : null;
    });
    if (result) return result;
  }
}

/** Removes claims on these questions: `reviewer`'s only, or anyone's (null: the question was answered). */
export async function dropClaims(
  db: Queryable,
  sourceId: string,
  questionIds: string[],
  reviewer: string | null,
): Promise<Claim[]> {
  if (questionIds.length === 0) return [];
  const rows = await db.query<ClaimRow>(
    `DELETE FROM claims WHERE source_id = $1 AND question_id = ANY($2::text[])
       AND ($3::text IS NULL OR reviewer = $3) RETURNING *`,
    [sourceId, questionIds, reviewer],
  );
  return rows.map(toClaim);
}

/** Every unexpired claim. */
export async function listClaims(db: Queryable): Promise<Claim[]> {
  const rows = await db.query<ClaimRow>(
    'SELECT * FROM claims WHERE expires_at > now() ORDER BY claimed_at',
  );
  return rows.map(toClaim);
}

/** Removes expired claims; returns them. */
export async function pruneClaims(db: Queryable): Promise<Claim[]> {
  const rows = await db.query<ClaimRow>('DELETE FROM claims WHERE expires_at <= now() RETURNING *');
  return rows.map(toClaim);
}
