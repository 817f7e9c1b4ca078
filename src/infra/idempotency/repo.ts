import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.ts';
import type { SecretBox } from '../../shared/secret-box.ts';
import { openResponse, sealResponse } from './stored-response.ts';
import { idempotencyKeys } from './tables.ts';

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

function byKey(companyId: string, key: string) {
  return and(eq(idempotencyKeys.companyId, companyId), eq(idempotencyKeys.idempotencyKey, key));
}

/**
 * Claims the key for this request, in one statement: a new row, or the take-over of a claim that
 * has no answer, whose lease ran out (created before `leaseCutoff`), whose change never committed,
 * and that was made for the very same request. Answers whether the claim is now this request's
 * (`claimToken`).
 */
export async function claimIdempotencyKey(
  db: Db,
  row: { companyId: string; idempotencyKey: string; requestHash: string; createdAt: Date; claimToken: string },
  leaseCutoff: Date,
): Promise<boolean> {
  const claimed = await queryRows<{ claim_token: string }>(
    db,
    sql`
      INSERT INTO idempotency_keys (company_id, idempotency_key, request_hash, created_at, claim_token)
      VALUES (${row.companyId}::uuid, ${row.idempotencyKey}, ${row.requestHash}, ${row.createdAt.toISOString()}::timestamptz,
              ${row.claimToken}::uuid)
      ON CONFLICT (company_id, idempotency_key) DO UPDATE
        SET created_at = excluded.created_at, claim_token = excluded.claim_token
        WHERE idempotency_keys.status_code IS NULL
          AND idempotency_keys.change_committed_at IS NULL
          AND idempotency_keys.created_at <= ${leaseCutoff.toISOString()}::timestamptz
          AND idempotency_keys.request_hash = excluded.request_hash
      RETURNING claim_token`,
  );
  return claimed.length === 1;
}

export async function findIdempotencyKey(db: Db, companyId: string, key: string): Promise<IdempotencyRow | undefined> {
  const [row] = await db.select().from(idempotencyKeys).where(byKey(companyId, key)).limit(1);
  return row;
}

/**
 * Inside the transaction of the request's change: records that the change commits with this
 * claim, if the claim is still this request's. False when a retry took it over (lease run out):
 * the caller must roll back, or the change would be made twice.
 */
export async function markIdempotentChangeCommitted(
  tx: Db,
  claim: { companyId: string; key: string; token: string },
  at: Date,
): Promise<boolean> {
  const rows = await tx
    .update(idempotencyKeys)
    .set({ changeCommittedAt: at })
    .where(and(byKey(claim.companyId, claim.key), eq(idempotencyKeys.claimToken, claim.token)))
    .returning({ key: idempotencyKeys.idempotencyKey });
  return rows.length === 1;
}

/** Stores the answer, if the claim is still this request's. */
export async function completeIdempotencyKey(
  db: Db,
  claim: { companyId: string; key: string; token: string },
  statusCode: number,
  responseBody: string,
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ statusCode, responseBody })
    .where(and(byKey(claim.companyId, claim.key), eq(idempotencyKeys.claimToken, claim.token)));
}

/**
 * Gives the key up (a server fault, an aborted request) so a retry runs again, unless this
 * request's change already committed: running it again would make it twice.
 */
export async function releaseIdempotencyKey(db: Db, claim: { companyId: string; key: string; token: string }): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(
      and(byKey(claim.companyId, claim.key), eq(idempotencyKeys.claimToken, claim.token), isNull(idempotencyKeys.changeCommittedAt)),
    );
}

/** Deletes the key if it was created before the cut-off (an expired replay window). */
export async function deleteIdempotencyKeyIfOlder(db: Db, companyId: string, key: string, before: Date): Promise<void> {
  await db.delete(idempotencyKeys).where(and(byKey(companyId, key), lt(idempotencyKeys.createdAt, before)));
}


/**
 * Erasure: rewrites the company's stored answers that hold any of `needles` (case-insensitive)
 * through `scrub`, so a replay never hands back a person's data after they were erased. The
 * answers are sealed, so each is opened here to be searched; a row is rewritten only if it still
 * holds what was read (an answer is written once, by its request, and by nothing else but this).
 */
export async function scrubStoredResponses(
  db: Db,
  box: SecretBox,
  companyId: string,
  needles: string[],
  scrub: (body: string) => string,
): Promise<void> {
  if (needles.length === 0) return;
  const lowered = needles.map((needle) => needle.toLowerCase());
  const rows = await db
    .select({ key: idempotencyKeys.idempotencyKey, body: idempotencyKeys.responseBody })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.companyId, companyId), sql`${idempotencyKeys.responseBody} is not null`));
  for (const row of rows) {
    const stored = row.body ?? '';
    const body = openResponse(box, companyId, row.key, stored);
    const text = body.toLowerCase();
    if (!lowered.some((needle) => text.includes(needle))) continue;
    await db
      .update(idempotencyKeys)
      .set({ responseBody: sealResponse(box, companyId, row.key, scrub(body)) })
      .where(and(byKey(companyId, row.key), eq(idempotencyKeys.responseBody, stored)));
  }
}

/**
 * Encryption-key rotation: seals every stored answer not yet sealed under the box's current key
 * (answers of an earlier release in clear included), in batches; returns how many changed.
 */
export async function resealStoredResponses(db: Db, box: SecretBox, batch = 500): Promise<number> {
  const current = `enc:v1:${box.currentKeyId}:%`;
  let count = 0;
  for (;;) {
    const rows = await db
      .select({ companyId: idempotencyKeys.companyId, key: idempotencyKeys.idempotencyKey, body: idempotencyKeys.responseBody })
      .from(idempotencyKeys)
      .where(and(sql`${idempotencyKeys.responseBody} is not null`, sql`${idempotencyKeys.responseBody} not like ${current}`))
      .limit(batch);
    for (const row of rows) {
      const stored = row.body ?? '';
      const resealed = sealResponse(box, row.companyId, row.key, openResponse(box, row.companyId, row.key, stored));
      await db
        .update(idempotencyKeys)
        .set({ responseBody: resealed })
        .where(and(byKey(row.companyId, row.key), eq(idempotencyKeys.responseBody, stored)));
      count++;
    }
    if (rows.length < batch) return count;
  }
}
