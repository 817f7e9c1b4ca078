import { asc, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sectors, tags } from './tables.ts';

/** Top-level sectors first, each followed by its sub-sectors, in their shipped order. */
export async function listSectors(db: Db) {
  return db
    .select()
    .from(sectors)
    .orderBy(sql`coalesce(${sectors.parentId}, ${sectors.id})`, sql`${sectors.parentId} nulls first`, asc(sectors.sortOrder));
}

export async function listTags(db: Db) {
  return db.select().from(tags).orderBy(asc(tags.tagType), asc(tags.name));
}

/** The subset of ids that name existing sectors (for validating sectorId). */
export async function existingSectorIds(db: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.select({ id: sectors.id }).from(sectors).where(inArray(sectors.id, ids));
  return new Set(rows.map((row) => row.id));
}

/** The subset of ids that name existing tags (for validating tag links). */
export async function existingTagIds(db: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.select({ id: tags.id }).from(tags).where(inArray(tags.id, ids));
  return new Set(rows.map((row) => row.id));
}
