// The notes module's SQL: the only code that names the `notes` table.
import { and, count, desc, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { keysetAfter, keysetBefore, keysetOrderBy } from '../../db/keyset.ts';
import type { NewestFirstWindow, PagePosition } from '../../shared/pagination.ts';
import { notes } from './tables.ts';

export type NoteRow = typeof notes.$inferSelect;

/** Whose notes: a candidate's (all of them, those on their applications included) or one application's. */
export type NotesOf = { candidateId: string } | { applicationId: string };

function ofWhere(companyId: string, of: NotesOf): SQL | undefined {
  return and(
    eq(notes.companyId, companyId),
    'candidateId' in of ? eq(notes.candidateId, of.candidateId) : eq(notes.applicationId, of.applicationId),
  );
}

export async function insertNote(db: Db, row: NoteRow): Promise<void> {
  await db.insert(notes).values(row);
}

/** The company's note on this candidate, unless deleted; `lock` locks it for an edit or a delete. */
export async function findNote(db: Db, companyId: string, candidateId: string, id: string, lock = false): Promise<NoteRow | undefined> {
  const query = db
    .select()
    .from(notes)
    .where(and(eq(notes.companyId, companyId), eq(notes.candidateId, candidateId), eq(notes.id, id), isNull(notes.deletedAt)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** A page of notes (not deleted), newest first by (createdAt, id), and their total. */
export async function listNotes(db: Db, companyId: string, of: NotesOf, page: PagePosition): Promise<{ rows: NoteRow[]; total: number }> {
  const where = and(ofWhere(companyId, of), isNull(notes.deletedAt));
  const sortKeys = [notes.createdAt, notes.id];
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(notes)
      .where(and(where, keysetAfter(sortKeys, page)))
      .orderBy(...keysetOrderBy(sortKeys, page))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(notes).where(where),
  ]);
  return { rows, total };
}

export async function updateNoteBody(db: Db, id: string, body: string, editedAt: Date): Promise<NoteRow> {
  const [row] = await db.update(notes).set({ body, editedAt }).where(eq(notes.id, id)).returning();
  return row;
}

/** Leaves the tombstone: the body goes, when and by whom stay. */
export async function markNoteDeleted(db: Db, id: string, at: Date, by: { userId: string | null; apiKeyId: string | null }): Promise<void> {
  await db
    .update(notes)
    .set({ body: null, deletedAt: at, deletedByUserId: by.userId, deletedByApiKeyId: by.apiKeyId })
    .where(eq(notes.id, id));
}

/** Erasure: every note on the candidate, tombstones included, goes; answers how many. */
export async function deleteNotesOfCandidate(db: Db, companyId: string, candidateId: string): Promise<number> {
  const deleted = await db
    .delete(notes)
    .where(and(eq(notes.companyId, companyId), eq(notes.candidateId, candidateId)))
    .returning({ id: notes.id });
  return deleted.length;
}

/** Every note on the candidate that is not deleted, oldest first (the candidate's export). */
export async function listAllNotesOfCandidate(db: Db, companyId: string, candidateId: string): Promise<NoteRow[]> {
  return db
    .select()
    .from(notes)
    .where(and(ofWhere(companyId, { candidateId }), isNull(notes.deletedAt)))
    .orderBy(notes.createdAt, notes.id);
}

// ---- the activity timeline -------------------------------------------------------------------------

/** What happened to a note, and the column that says when. */
export type NoteHappening = 'created' | 'edited' | 'deleted';
const TIME_OF: Record<NoteHappening, typeof notes.createdAt | typeof notes.editedAt | typeof notes.deletedAt> = {
  created: notes.createdAt,
  edited: notes.editedAt,
  deleted: notes.deletedAt,
};

/** Notes by the time of one happening (those it happened to), newest first by (that time, id), within the window. */
export async function listNoteHappenings(db: Db, companyId: string, of: NotesOf, happening: NoteHappening, window: NewestFirstWindow): Promise<NoteRow[]> {
  const time = TIME_OF[happening];
  return db
    .select()
    .from(notes)
    .where(and(ofWhere(companyId, of), isNotNull(time), keysetBefore(time, notes.id, window.before)))
    .orderBy(desc(time), desc(notes.id))
    .limit(window.limit);
}

/** How many notes were created, edited and deleted (each counted once per happening). */
export async function countNoteHappenings(db: Db, companyId: string, of: NotesOf): Promise<Record<NoteHappening, number>> {
  const [row] = await db
    .select({
      created: count(),
      edited: sql<number>`count(${notes.editedAt})::int`,
      deleted: sql<number>`count(${notes.deletedAt})::int`,
    })
    .from(notes)
    .where(ofWhere(companyId, of));
  return { created: row.created, edited: row.edited, deleted: row.deleted };
}
