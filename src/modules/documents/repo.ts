// SQL of candidate files and of the stored objects waiting to be deleted. The one read of another
// module's data is the applications module's view `application_candidates`.
import { and, asc, count, eq, getTableColumns, inArray, lte, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.ts';
import { keysetAfter, keysetOrderBy } from '../../db/keyset.ts';
import type { PagePosition } from '../../shared/pagination.ts';
import { candidateFileDeletions, candidateFiles } from './tables.ts';

/**
 * A file's metadata: every column but its extracted text (up to 200,000 characters, read only by
 * the candidates module's search through the view candidate_file_texts). Taken from the table, so
 * a column added there is read by every metadata read here.
 */
const { extractedText: _extractedText, ...fileColumns } = getTableColumns(candidateFiles);

export type CandidateFileRow = Omit<typeof candidateFiles.$inferSelect, 'extractedText'>;

export async function insertCandidateFile(db: Db, row: CandidateFileRow): Promise<void> {
  await db.insert(candidateFiles).values(row);
}

/** The company's file of this candidate; undefined for any other. */
export async function findCandidateFile(db: Db, companyId: string, candidateId: string, id: string): Promise<CandidateFileRow | undefined> {
  const [row] = await db
    .select(fileColumns)
    .from(candidateFiles)
    .where(and(eq(candidateFiles.companyId, companyId), eq(candidateFiles.candidateId, candidateId), eq(candidateFiles.id, id)))
    .limit(1);
  return row;
}

/** A file by id alone: for a signed download link, whose signature names the file. */
export async function findCandidateFileById(db: Db, id: string): Promise<CandidateFileRow | undefined> {
  const [row] = await db.select(fileColumns).from(candidateFiles).where(eq(candidateFiles.id, id)).limit(1);
  return row;
}

export async function listCandidateFiles(
  db: Db,
  companyId: string,
  candidateId: string,
  page: PagePosition,
): Promise<{ rows: CandidateFileRow[]; total: number }> {
  const sortKeys = [candidateFiles.createdAt, candidateFiles.id];
  const where = and(eq(candidateFiles.companyId, companyId), eq(candidateFiles.candidateId, candidateId));
  const rows = await db
    .select(fileColumns)
    .from(candidateFiles)
    .where(and(where, keysetAfter(sortKeys, page)))
    .orderBy(...keysetOrderBy(sortKeys, page))
    .limit(page.limit)
    .offset(page.offset);
  const [{ total }] = await db.select({ total: count() }).from(candidateFiles).where(where);
  return { rows, total };
}

/** Every file of the candidate, oldest first (export). */
export async function findFilesOfCandidate(db: Db, companyId: string, candidateId: string): Promise<CandidateFileRow[]> {
  return db
    .select(fileColumns)
    .from(candidateFiles)
    .where(and(eq(candidateFiles.companyId, companyId), eq(candidateFiles.candidateId, candidateId)))
    .orderBy(asc(candidateFiles.createdAt), asc(candidateFiles.id));
}

/** Deletes the file's row; answers it, or undefined when it was not there (a concurrent delete). */
export async function deleteCandidateFile(db: Db, companyId: string, id: string): Promise<CandidateFileRow | undefined> {
  const [row] = await db
    .delete(candidateFiles)
    .where(and(eq(candidateFiles.companyId, companyId), eq(candidateFiles.id, id)))
    .returning(fileColumns);
  return row;
}

/** Deletes every file row of the candidate (erasure); answers them. */
export async function deleteFilesOfCandidate(db: Db, companyId: string, candidateId: string): Promise<CandidateFileRow[]> {
  return db
    .delete(candidateFiles)
    .where(and(eq(candidateFiles.companyId, companyId), eq(candidateFiles.candidateId, candidateId)))
    .returning(fileColumns);
}

/** Whether the company's application is the candidate's (read through the applications module's view). */
export async function isApplicationOfCandidate(db: Db, companyId: string, applicationId: string, candidateId: string): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(
    db,
    sql`select 1 as one from application_candidates where id = ${applicationId} and company_id = ${companyId} and candidate_id = ${candidateId}`,
  );
  return rows.length > 0;
}

/** Marks stored objects for deletion at `dueAt` (a key already marked keeps the earlier time). */
export async function scheduleDeletions(db: Db, keys: string[], dueAt: Date, now: Date): Promise<void> {
  if (keys.length === 0) return;
  await db
    .insert(candidateFileDeletions)
    .values(keys.map((storageKey) => ({ storageKey, dueAt, attempts: 0, createdAt: now })))
    .onConflictDoUpdate({ target: candidateFileDeletions.storageKey, set: { dueAt: sql`least(${candidateFileDeletions.dueAt}, excluded.due_at)` } });
}

/** Unmarks a key; answers whether it was marked (an upload checks its own mark is still there). */
export async function cancelDeletion(db: Db, key: string): Promise<boolean> {
  const rows = await db.delete(candidateFileDeletions).where(eq(candidateFileDeletions.storageKey, key)).returning({ key: candidateFileDeletions.storageKey });
  return rows.length > 0;
}

/** Keys due for deletion, most overdue first. */
export async function findDueDeletions(db: Db, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .select({ key: candidateFileDeletions.storageKey })
    .from(candidateFileDeletions)
    .where(lte(candidateFileDeletions.dueAt, now))
    .orderBy(asc(candidateFileDeletions.dueAt))
    .limit(limit);
  return rows.map((row) => row.key);
}

/** Deleted from the store: the marks go. */
export async function forgetDeletions(db: Db, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.delete(candidateFileDeletions).where(inArray(candidateFileDeletions.storageKey, keys));
}

/** A failed store delete: tried again after `retryAt`. */
export async function postponeDeletion(db: Db, key: string, retryAt: Date): Promise<void> {
  await db
    .update(candidateFileDeletions)
    .set({ dueAt: retryAt, attempts: sql`${candidateFileDeletions.attempts} + 1` })
    .where(eq(candidateFileDeletions.storageKey, key));
}

/** Files whose text is still to be taken, oldest first. */
export async function findFilesAwaitingText(db: Db, limit: number): Promise<CandidateFileRow[]> {
  return db.select(fileColumns).from(candidateFiles).where(eq(candidateFiles.textStatus, 'PENDING')).orderBy(asc(candidateFiles.createdAt)).limit(limit);
}

/** What the text extraction found (a file deleted meanwhile is simply not there to update). */
export async function recordFileText(
  db: Db,
  id: string,
  found: Pick<typeof candidateFiles.$inferSelect, 'textStatus' | 'extractedText' | 'contactSuggestions'>,
): Promise<void> {
  await db.update(candidateFiles).set(found).where(and(eq(candidateFiles.id, id), eq(candidateFiles.textStatus, 'PENDING')));
}
