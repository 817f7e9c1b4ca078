// The audit module's SQL: its one table, appended to and read newest first.
import { and, count, eq, gte, inArray, lt, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { keysetAfter, keysetOrderBy } from '../../db/keyset.ts';
import type { PagePosition } from '../../shared/pagination.ts';
import { auditEntries, type AuditEntryRow } from './tables.ts';

export async function insertAuditEntry(db: Db, row: AuditEntryRow): Promise<void> {
  await db.insert(auditEntries).values(row);
}

export interface AuditFilter {
  actions?: string[] | undefined;
  actorId?: string | undefined;
  /** Inclusive. */
  from?: Date | undefined;
  /** Exclusive. */
  to?: Date | undefined;
}

/** A page of the company's entries, newest first by (occurredAt, id), and how many match. */
export async function listAuditEntries(db: Db, companyId: string, filter: AuditFilter, page: PagePosition): Promise<{ rows: AuditEntryRow[]; total: number }> {
  const conditions: SQL[] = [eq(auditEntries.companyId, companyId)];
  if (filter.actions?.length) conditions.push(inArray(auditEntries.action, filter.actions));
  if (filter.actorId) conditions.push(eq(auditEntries.actorId, filter.actorId));
  if (filter.from) conditions.push(gte(auditEntries.occurredAt, filter.from));
  if (filter.to) conditions.push(lt(auditEntries.occurredAt, filter.to));
  const where = and(...conditions);
  const sortKeys = [auditEntries.occurredAt, auditEntries.id];
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(auditEntries)
      .where(and(where, keysetAfter(sortKeys, page)))
      .orderBy(...keysetOrderBy(sortKeys, page))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(auditEntries).where(where),
  ]);
  return { rows, total };
}
