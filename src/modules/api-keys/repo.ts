import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { apiKeys } from './tables.ts';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export async function insertApiKey(db: Db, row: ApiKeyRow): Promise<void> {
  await db.insert(apiKeys).values(row);
}

export async function findApiKeyByHash(db: Db, keyHash: string): Promise<ApiKeyRow | undefined> {
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.keyHash, keyHash)).limit(1);
  return row;
}

export async function findApiKey(db: Db, companyId: string | undefined, id: string): Promise<ApiKeyRow | undefined> {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(companyId ? and(eq(apiKeys.id, id), eq(apiKeys.companyId, companyId)) : eq(apiKeys.id, id))
    .limit(1);
  return row;
}

export async function listApiKeysOfCompany(db: Db, companyId: string): Promise<ApiKeyRow[]> {
  return db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.companyId, companyId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

/** Sets revoked_at once; revoking twice keeps the first time. */
export async function markApiKeyRevoked(db: Db, id: string, at: Date): Promise<ApiKeyRow | undefined> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, ${at.toISOString()}::timestamptz)` })
    .where(eq(apiKeys.id, id))
    .returning();
  return row;
}

export async function updateApiKeyLabel(db: Db, id: string, label: string): Promise<ApiKeyRow | undefined> {
  const [row] = await db.update(apiKeys).set({ label }).where(eq(apiKeys.id, id)).returning();
  return row;
}

/** Records use to the minute: the condition makes repeated calls within a minute write nothing. */
export async function touchApiKeyLastUsed(db: Db, id: string, minute: Date): Promise<void> {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: minute })
    .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, minute))));
}
