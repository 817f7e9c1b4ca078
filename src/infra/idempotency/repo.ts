import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { idempotencyKeys } from './tables.ts';

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

function byKey(companyId: string, key: string) {
  return and(eq(idempotencyKeys.companyId, companyId), eq(idempotencyKeys.idempotencyKey, key));
}

/** Claims the key for a first request; false when a row for it already exists. */
export async function claimIdempotencyKey(
  db: Db,
  row: { companyId: string; idempotencyKey: string; requestHash: string; createdAt: Date },
): Promise<boolean> {
  const inserted = await db
    .insert(idempotencyKeys)
    .values(row)
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.idempotencyKey });
  return inserted.length === 1;
}

export async function findIdempotencyKey(db: Db, companyId: string, key: string): Promise<IdempotencyRow | undefined> {
  const [row] = await db.select().from(idempotencyKeys).where(byKey(companyId, key)).limit(1);
  return row;
}

export async function completeIdempotencyKey(
  db: Db,
  companyId: string,
  key: string,
  statusCode: number,
  responseBody: string,
): Promise<void> {
  await db.update(idempotencyKeys).set({ statusCode, responseBody }).where(byKey(companyId, key));
}

export async function releaseIdempotencyKey(db: Db, companyId: string, key: string): Promise<void> {
  await db.delete(idempotencyKeys).where(byKey(companyId, key));
}

/** Deletes the key if it was created before the cut-off (an expired replay window). */
export async function deleteIdempotencyKeyIfOlder(db: Db, companyId: string, key: string, before: Date): Promise<void> {
  await db.delete(idempotencyKeys).where(and(byKey(companyId, key), lt(idempotencyKeys.createdAt, before)));
}

/** Deletes every key created before the cut-off; answers how many. */
export async function deleteIdempotencyKeysBefore(db: Db, before: Date): Promise<number> {
  const deleted = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, before))
    .returning({ key: idempotencyKeys.idempotencyKey });
  return deleted.length;
}
