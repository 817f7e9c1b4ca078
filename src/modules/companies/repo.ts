import { and, asc, desc, eq } from 'drizzle-orm';
import { queryStatement, sqlState, type Db } from '../../db/client.ts';
import { keysetAfter, keysetOrderBy } from '../../db/keyset.ts';
import { selectList } from '../../db/select-list.ts';
import type { PagePosition } from '../../shared/pagination.ts';
import { companies, companyBoards, rejectionReasons } from './tables.ts';

export type CompanyRow = typeof companies.$inferSelect;

export async function findCompany(db: Db, id: string): Promise<CompanyRow | undefined> {
  const [row] = await db.select().from(companies).where(eq(companies.id, id)).limit(1);
  return row;
}

export async function countCompanies(db: Db): Promise<number> {
  return db.$count(companies);
}

export async function updateCompany(db: Db, id: string, patch: Partial<CompanyRow>): Promise<CompanyRow | undefined> {
  const [row] = await db.update(companies).set(patch).where(eq(companies.id, id)).returning();
  return row;
}

/** A page of companies, newest first. */
export async function listCompanyRows(db: Db, limit: number, offset: number): Promise<CompanyRow[]> {
  return db.select().from(companies).orderBy(desc(companies.createdAt), desc(companies.id)).limit(limit).offset(offset);
}

// --- rejection reasons ------------------------------------------------------------------------------

export type RejectionReasonRow = typeof rejectionReasons.$inferSelect;

/** A new company and its first rejection reasons, together (one transaction: a savepoint inside the caller's). */
export async function insertCompanyWithReasons(db: Db, row: CompanyRow, reasons: RejectionReasonRow[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(companies).values(row);
    if (reasons.length > 0) await tx.insert(rejectionReasons).values(reasons);
  });
}

export interface ReasonFilters {
  kind?: string | undefined;
  active?: boolean | undefined;
}

/** A page of the company's reasons, oldest first, and how many match. */
export async function listRejectionReasonRows(
  db: Db,
  companyId: string,
  filters: ReasonFilters,
  page: PagePosition,
): Promise<{ rows: RejectionReasonRow[]; total: number }> {
  const where = and(
    eq(rejectionReasons.companyId, companyId),
    filters.kind === undefined ? undefined : eq(rejectionReasons.kind, filters.kind),
    filters.active === undefined ? undefined : eq(rejectionReasons.active, filters.active),
  );
  const sortKeys = [rejectionReasons.createdAt, rejectionReasons.id];
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(rejectionReasons)
      .where(and(where, keysetAfter(sortKeys, page)))
      .orderBy(...keysetOrderBy(sortKeys, page))
      .limit(page.limit)
      .offset(page.offset),
    db.$count(rejectionReasons, where),
  ]);
  return { rows, total };
}

/** Every reason of the company, archived ones included (a company has a few dozen at most). */
export async function listAllRejectionReasonRows(db: Db, companyId: string): Promise<RejectionReasonRow[]> {
  return db.select().from(rejectionReasons).where(eq(rejectionReasons.companyId, companyId)).orderBy(asc(rejectionReasons.createdAt), asc(rejectionReasons.id));
}

export async function findRejectionReason(db: Db, companyId: string, id: string): Promise<RejectionReasonRow | undefined> {
  const [row] = await db
    .select()
    .from(rejectionReasons)
    .where(and(eq(rejectionReasons.companyId, companyId), eq(rejectionReasons.id, id)))
    .limit(1);
  return row;
}

/** Inserts the reason; false when the company already has one of that kind and name (any letter case). */
export async function insertRejectionReason(db: Db, row: RejectionReasonRow): Promise<boolean> {
  const inserted = await db.insert(rejectionReasons).values(row).onConflictDoNothing().returning({ id: rejectionReasons.id });
  return inserted.length === 1;
}

/** Changes the company's reason; undefined if there is none; throws the unique violation (23505) of a taken name. */
export async function updateRejectionReasonRow(
  db: Db,
  companyId: string,
  id: string,
  patch: Partial<Pick<RejectionReasonRow, 'name' | 'active' | 'updatedAt'>>,
): Promise<RejectionReasonRow | undefined> {
  const [row] = await db
    .update(rejectionReasons)
    .set(patch)
    .where(and(eq(rejectionReasons.companyId, companyId), eq(rejectionReasons.id, id)))
    .returning();
  return row;
}

/**
 * Deletes the company's reason in a transaction of its own (a savepoint inside the caller's), so
 * that the foreign key of a history row naming it (23503: a move gave it, committed before or
 * meanwhile) fails only this. Answers 'deleted', 'missing' or 'in use'.
 */
export async function deleteRejectionReasonRow(db: Db, companyId: string, id: string): Promise<'deleted' | 'missing' | 'in use'> {
  try {
    return await db.transaction(async (tx) => {
      const deleted = await tx
        .delete(rejectionReasons)
        .where(and(eq(rejectionReasons.companyId, companyId), eq(rejectionReasons.id, id)))
        .returning({ id: rejectionReasons.id });
      return deleted.length === 1 ? 'deleted' : 'missing';
    });
  } catch (error) {
    if (sqlState(error) === '23503') return 'in use';
    throw error;
  }
}

/** findMoveReason's statement: $1 the company, $2 the reason (null: none). */
const MOVE_REASON = `select c.requires_rejection_reason as "requiresRejectionReason", ${selectList(rejectionReasons, 'r')}
  from companies c left join rejection_reasons r on r.company_id = c.id and r.id = $2::uuid
  where c.id = $1`;

/**
 * What a status move needs to check its reason, in one fixed statement: whether the company
 * requires a reason for REJECTED and, if `reasonId` is given, the company's reason of that id.
 */
export async function findMoveReason(
  db: Db,
  companyId: string,
  reasonId: string | null,
): Promise<{ requiresRejectionReason: boolean; reason: RejectionReasonRow | undefined } | undefined> {
  const [found] = await queryStatement<{ requiresRejectionReason: boolean } & { [K in keyof RejectionReasonRow]: RejectionReasonRow[K] | null }>(
    db,
    MOVE_REASON,
    [companyId, reasonId],
  );
  if (!found) return undefined;
  const { requiresRejectionReason, ...reason } = found;
  return { requiresRejectionReason, reason: reason.id === null ? undefined : (reason as RejectionReasonRow) };
}

// --- public job board -------------------------------------------------------------------------------

export type CompanyBoardRow = typeof companyBoards.$inferSelect;

export async function findBoardOfCompany(db: Db, companyId: string): Promise<CompanyBoardRow | undefined> {
  const [row] = await db.select().from(companyBoards).where(eq(companyBoards.companyId, companyId)).limit(1);
  return row;
}

/** findEnabledBoard's statement: $1 the slug. */
const ENABLED_BOARD = `select ${selectList(companyBoards, 'b')}, c.name as "companyName", c.default_language as "defaultLanguage"
  from company_boards b join companies c on c.id = b.company_id
  where b.slug = $1 and b.enabled`;

/** The board of this slug with its company's name and default language, only while it is on. */
export async function findEnabledBoard(
  db: Db,
  slug: string,
): Promise<(CompanyBoardRow & { companyName: string; defaultLanguage: string }) | undefined> {
  const [row] = await queryStatement<CompanyBoardRow & { companyName: string; defaultLanguage: string }>(db, ENABLED_BOARD, [slug]);
  return row;
}

/**
 * Writes the company's board settings (the row is made on the first write). Throws the unique
 * violation (23505) of a slug another company has, and the check violation (23514) of a board
 * turned on without a slug (the service checks first; the constraint holds under concurrency).
 */
export async function upsertBoard(db: Db, row: CompanyBoardRow): Promise<CompanyBoardRow> {
  const { companyId: _key, ...rest } = row;
  const [written] = await db
    .insert(companyBoards)
    .values(row)
    .onConflictDoUpdate({ target: companyBoards.companyId, set: rest })
    .returning();
  return written;
}
