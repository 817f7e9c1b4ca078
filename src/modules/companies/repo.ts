import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { companies } from './tables.ts';

export type CompanyRow = typeof companies.$inferSelect;

export async function insertCompany(db: Db, row: CompanyRow): Promise<void> {
  await db.insert(companies).values(row);
}

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
