// The sample-data module's SQL: its one table, one row per company with sample data.
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sampleDataSets, type SampleDataSetRow } from './tables.ts';

export async function findSampleDataSet(db: Db, companyId: string): Promise<SampleDataSetRow | undefined> {
  const [row] = await db.select().from(sampleDataSets).where(eq(sampleDataSets.companyId, companyId));
  return row;
}

/** Claims the company's sample data set; false when it has one already (a concurrent claim waits for the first to end). */
export async function claimSampleDataSet(db: Db, row: SampleDataSetRow): Promise<boolean> {
  const inserted = await db.insert(sampleDataSets).values(row).onConflictDoNothing().returning({ companyId: sampleDataSets.companyId });
  return inserted.length === 1;
}

export async function recordSampleRows(db: Db, companyId: string, rows: { jobListingIds: string[]; candidateIds: string[] }): Promise<void> {
  await db.update(sampleDataSets).set(rows).where(eq(sampleDataSets.companyId, companyId));
}

/** Deletes the company's set (the row is locked until the caller's transaction ends): what it named, or undefined. */
export async function takeSampleDataSet(db: Db, companyId: string): Promise<SampleDataSetRow | undefined> {
  const [row] = await db.delete(sampleDataSets).where(eq(sampleDataSets.companyId, companyId)).returning();
  return row;
}
