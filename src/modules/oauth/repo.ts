// SQL for the authorization server's storage. A row past expires_at is treated as absent
// everywhere (oidc-provider is told nothing it would have to expire itself) and purged by the
// worker's sweep.
//
// An artifact's id is, for most kinds, the secret itself: an access or refresh token, an
// authorization code, a session's cookie. So rows are keyed by the SHA-256 of the id, never the id
// (like API keys): every function here that takes an artifact's id hashes it, and whoever reads
// through them (the adapter, the resource server) passes the value as it came. Registered clients
// are the exception: a client id is public, and operators look clients up by it. The grant id,
// uid and user code columns stay as they are (lookups, not secrets; the device flow is off).
import { hash } from 'node:crypto';
import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { deleteBatch } from '../../db/delete-batch.ts';
import { oidcKeys, oidcPayloads } from './tables.ts';

export type OidcPayloadRow = typeof oidcPayloads.$inferSelect;
export type OidcKeyRow = typeof oidcKeys.$inferSelect;

const live = (now: Date) => or(isNull(oidcPayloads.expiresAt), gt(oidcPayloads.expiresAt, now));

/** The key an artifact's row is stored under (migration 0025 rewrote the rows stored before). */
export function storedPayloadId(kind: string, id: string): string {
  return kind === 'Client' ? id : hash('sha256', id, 'hex');
}

const byId = (kind: string, id: string) => and(eq(oidcPayloads.kind, kind), eq(oidcPayloads.id, storedPayloadId(kind, id)));

export async function upsertPayload(db: Db, row: OidcPayloadRow): Promise<void> {
  await db
    .insert(oidcPayloads)
    .values({ ...row, id: storedPayloadId(row.kind, row.id) })
    .onConflictDoUpdate({
      target: [oidcPayloads.kind, oidcPayloads.id],
      set: { payload: row.payload, grantId: row.grantId, uid: row.uid, userCode: row.userCode, expiresAt: row.expiresAt },
    });
}

export async function findPayload(db: Db, kind: string, id: string, now: Date): Promise<OidcPayloadRow | undefined> {
  const [row] = await db
    .select()
    .from(oidcPayloads)
    .where(and(byId(kind, id), live(now)))
    .limit(1);
  return row;
}

export async function findPayloadBy(
  db: Db,
  kind: string,
  column: 'uid' | 'userCode',
  value: string,
  now: Date,
): Promise<OidcPayloadRow | undefined> {
  const [row] = await db
    .select()
    .from(oidcPayloads)
    .where(and(eq(oidcPayloads.kind, kind), eq(oidcPayloads[column], value), live(now)))
    .limit(1);
  return row;
}

/** Marks a one-time artifact (an authorization code) used, keeping the row for reuse detection. */
export async function consumePayload(db: Db, kind: string, id: string, consumedAtEpoch: number): Promise<void> {
  await db
    .update(oidcPayloads)
    .set({ payload: sql`${oidcPayloads.payload} || jsonb_build_object('consumed', ${consumedAtEpoch}::bigint)` })
    .where(byId(kind, id));
}

export async function deletePayload(db: Db, kind: string, id: string): Promise<void> {
  await db.delete(oidcPayloads).where(byId(kind, id));
}

/** Revoking a grant removes everything issued under it (codes, access and refresh tokens). */
export async function deletePayloadsOfGrant(db: Db, grantId: string): Promise<void> {
  await db.delete(oidcPayloads).where(eq(oidcPayloads.grantId, grantId));
}

export async function deleteExpiredPayloads(db: Db, before: Date, limit: number): Promise<number> {
  return deleteBatch(db, {
    table: 'oidc_payloads',
    key: ['kind', 'id'],
    where: sql`expires_at <= ${before.toISOString()}::timestamptz`,
    age: 'expires_at',
    limit,
  });
}

export async function listPayloadsOfKind(db: Db, kind: string): Promise<OidcPayloadRow[]> {
  return db.select().from(oidcPayloads).where(eq(oidcPayloads.kind, kind));
}

export async function listKeys(db: Db, kind: OidcKeyRow['kind']): Promise<OidcKeyRow[]> {
  return db.select().from(oidcKeys).where(eq(oidcKeys.kind, kind)).orderBy(desc(oidcKeys.createdAt), desc(oidcKeys.id));
}

export async function insertKey(db: Db, row: OidcKeyRow): Promise<void> {
  await db.insert(oidcKeys).values(row);
}

export async function updateKeyMaterial(db: Db, id: string, material: Record<string, unknown>): Promise<void> {
  await db.update(oidcKeys).set({ material }).where(eq(oidcKeys.id, id));
}

export async function deleteKey(db: Db, id: string): Promise<void> {
  await db.delete(oidcKeys).where(eq(oidcKeys.id, id));
}

/** Serialises key generation between servers starting at once (held to the end of the transaction). */
export async function lockKeyGeneration(db: Db): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(72616932)`);
}
