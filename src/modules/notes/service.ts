// Notes on candidates (src/modules/notes/README.md): written, edited, deleted and listed here, each
// change with its outbox event in the same transaction. Who may change a note: authorship.ts.
import { randomUUID } from 'node:crypto';
import { recordEvent } from '../../infra/outbox/record-event.ts';
import { withTransaction, type Principal, type ServiceContext } from '../../shared/context.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../shared/errors.ts';
import { endPage, NEWEST_FIRST, startPage, toPage, type NewestFirstWindow, type Page, type PageRequest } from '../../shared/pagination.ts';
import { listApiKeys } from '../api-keys/service.ts';
import { candidateOfApplication } from '../applications/service.ts';
import { getCandidate } from '../candidates/service.ts';
import { getUser } from '../users/service.ts';
import { mayDelete, mayEdit } from './authorship.ts';
import {
  countNoteHappenings,
  deleteNotesOfCandidate,
  findNote,
  insertNote,
  listAllNotesOfCandidate,
  listNoteHappenings,
  listNotes,
  markNoteDeleted,
  updateNoteBody,
  type NoteHappening,
  type NoteRow,
  type NotesOf,
} from './repo.ts';
import type { CreateNoteBody, UpdateNoteBody } from './schemas.ts';

/** Who did something, as answered: a user or an API key, with its name or label. */
export interface ActorView {
  type: 'USER' | 'API_KEY';
  id: string;
  label: string | null;
}

/** Who, as recorded: a user id or an API key id (at most one is set; neither: nobody known). */
export interface ActorRef {
  userId: string | null;
  apiKeyId: string | null;
}

export interface NoteView {
  id: string;
  candidateId: string;
  applicationId: string | null;
  body: string;
  author: ActorView;
  createdAt: string;
  editedAt: string | null;
}

/**
 * Describes who did something, for a batch of references: a user by their name (never their e-mail
 * address: an API key's holder, maybe a third party, would otherwise read the company's staff list),
 * an API key by its label as it is now. Answers a lookup; an unknown reference gives a null label.
 */
export async function describeActors(
  ctx: ServiceContext,
  companyId: string,
  refs: readonly ActorRef[],
): Promise<(ref: ActorRef) => ActorView | null> {
  const userIds = [...new Set(refs.map((ref) => ref.userId).filter((id): id is string => id !== null))];
  const users = new Map<string, string | null>();
  for (const id of userIds) users.set(id, (await getUser(ctx, id))?.name ?? null);
  const keys = new Map<string, string>();
  if (refs.some((ref) => ref.apiKeyId !== null)) {
    for (const key of await listApiKeys(ctx, companyId)) keys.set(key.id, key.label);
  }
  return (ref) => {
    if (ref.userId) return { type: 'USER', id: ref.userId, label: users.get(ref.userId) ?? null };
    if (ref.apiKeyId) return { type: 'API_KEY', id: ref.apiKeyId, label: keys.get(ref.apiKeyId) ?? null };
    return null;
  };
}

const authorOf = (row: NoteRow): ActorRef => ({ userId: row.authorUserId, apiKeyId: row.authorApiKeyId });

function toNoteView(row: NoteRow, author: ActorView): NoteView {
  return {
    id: row.id,
    candidateId: row.candidateId,
    applicationId: row.applicationId,
    body: row.body ?? '',
    author,
    createdAt: row.createdAt.toISOString(),
    editedAt: row.editedAt?.toISOString() ?? null,
  };
}

async function present(ctx: ServiceContext, companyId: string, rows: NoteRow[]): Promise<NoteView[]> {
  const describe = await describeActors(ctx, companyId, rows.map(authorOf));
  return rows.map((row) => toNoteView(row, describe(authorOf(row))!));
}

async function notesPage(ctx: ServiceContext, companyId: string, of: NotesOf, request: PageRequest): Promise<Page<NoteView>> {
  const position = startPage(ctx.secrets, request, 'notes', NEWEST_FIRST, { companyId, ...of });
  const { rows: fetched, total } = await listNotes(ctx.db, companyId, of, position);
  const { rows, ...cursors } = endPage(fetched, position, (row) => [row.createdAt, row.id]);
  return toPage(await present(ctx, companyId, rows), total, position, cursors);
}

/** The candidate's notes (those on their applications included), newest first. 404 for an unknown or erased candidate. */
export async function listCandidateNotes(ctx: ServiceContext, companyId: string, candidateId: string, request: PageRequest): Promise<Page<NoteView>> {
  await getCandidate(ctx, companyId, candidateId);
  return notesPage(ctx, companyId, { candidateId }, request);
}

/** The notes on one application, newest first. 404 for an unknown application. */
export async function listApplicationNotes(ctx: ServiceContext, companyId: string, applicationId: string, request: PageRequest): Promise<Page<NoteView>> {
  if (!(await candidateOfApplication(ctx, companyId, applicationId))) throw new NotFoundError('Application');
  return notesPage(ctx, companyId, { applicationId }, request);
}

function refOf(principal: Principal): ActorRef {
  if (principal.userId) return { userId: principal.userId, apiKeyId: null };
  if (principal.apiKeyId) return { userId: null, apiKeyId: principal.apiKeyId };
  throw new Error('a note is written by a user or an API key');
}

/**
 * Writes a note on the candidate (and one of their applications, when given: 422 for any other),
 * with note.created, in one transaction. The candidate is share-locked meanwhile, so an erasure
 * either comes first (404 here) or waits and then deletes this note too.
 */
export async function createNote(ctx: ServiceContext, principal: Principal, candidateId: string, body: CreateNoteBody): Promise<NoteView> {
  const { companyId } = principal;
  const author = refOf(principal);
  const describe = await describeActors(ctx, companyId, [author]);
  return withTransaction(ctx, async (tx) => {
    await getCandidate(tx, companyId, candidateId, { lock: 'share' });
    const applicationId = body.applicationId ?? null;
    if (applicationId !== null && (await candidateOfApplication(tx, companyId, applicationId)) !== candidateId) {
      throw ValidationError.field('applicationId', "is not one of this candidate's applications");
    }
    const now = ctx.clock.now();
    const row: NoteRow = {
      id: randomUUID(),
      companyId,
      candidateId,
      applicationId,
      body: body.body,
      authorUserId: author.userId,
      authorApiKeyId: author.apiKeyId,
      createdAt: now,
      editedAt: null,
      deletedAt: null,
      deletedByUserId: null,
      deletedByApiKeyId: null,
    };
    await insertNote(tx.db, row);
    const note = toNoteView(row, describe(author)!);
    await recordEvent(tx.db, { companyId, type: 'note.created', data: { note }, occurredAt: now });
    return note;
  });
}

/** Only the author edits (403 otherwise); note.updated. The same body again changes nothing and emits nothing. */
export async function editNote(ctx: ServiceContext, principal: Principal, candidateId: string, noteId: string, body: UpdateNoteBody): Promise<NoteView> {
  const { companyId } = principal;
  return withTransaction(ctx, async (tx) => {
    const row = await findNote(tx.db, companyId, candidateId, noteId, true);
    if (!row) throw new NotFoundError('Note');
    if (!mayEdit(row, principal)) {
      throw new ForbiddenError('Only the author of a note may edit it', [{ field: 'author', message: 'only the author may edit this note' }]);
    }
    const [presented] = await present(tx, companyId, [row]);
    if (row.body === body.body) return presented;
    const now = ctx.clock.now();
    const note = toNoteView(await updateNoteBody(tx.db, row.id, body.body, now), presented.author);
    await recordEvent(tx.db, { companyId, type: 'note.updated', data: { note }, occurredAt: now });
    return note;
  });
}

/** The author, a company ADMIN or an API key with candidates:write deletes (403 otherwise); note.deleted. */
export async function deleteNote(ctx: ServiceContext, principal: Principal, candidateId: string, noteId: string): Promise<void> {
  const { companyId } = principal;
  const by = refOf(principal);
  const describe = await describeActors(ctx, companyId, [by]);
  await withTransaction(ctx, async (tx) => {
    const row = await findNote(tx.db, companyId, candidateId, noteId, true);
    if (!row) throw new NotFoundError('Note');
    if (!mayDelete(row, principal)) {
      throw new ForbiddenError('Only the author of a note, a company ADMIN or an API key may delete it', [
        { field: 'author', message: 'only the author or an ADMIN may delete this note' },
      ]);
    }
    const now = ctx.clock.now();
    await markNoteDeleted(tx.db, row.id, now, by);
    await recordEvent(tx.db, {
      companyId,
      type: 'note.deleted',
      data: { noteId: row.id, candidateId, applicationId: row.applicationId, deletedBy: describe(by)! },
      occurredAt: now,
    });
  });
}

// ---- for the privacy module ------------------------------------------------------------------------

/** Erasure, in the caller's transaction: every note on the candidate goes (deleted ones' tombstones too); answers how many. */
export async function eraseNotesOf(ctx: ServiceContext, companyId: string, candidateId: string): Promise<number> {
  return withTransaction(ctx, (tx) => deleteNotesOfCandidate(tx.db, companyId, candidateId));
}

/** The candidate's notes, oldest first (the candidate's export). */
export async function exportNotesOf(ctx: ServiceContext, companyId: string, candidateId: string): Promise<NoteView[]> {
  return present(ctx, companyId, await listAllNotesOfCandidate(ctx.db, companyId, candidateId));
}

// ---- for the activity timeline ---------------------------------------------------------------------

export type { NoteHappening, NotesOf };

export interface NoteHappeningView {
  happening: NoteHappening;
  /** When it happened, and the note's id: the timeline's sort key within this happening. */
  at: Date;
  noteId: string;
  applicationId: string | null;
  /** The body as it is now; null once deleted. */
  body: string | null;
  /** The author (created, edited) or who deleted it. */
  actor: ActorRef;
}

/** One happening of the notes (created, edited: the last edit, deleted), newest first, within the window. */
export async function noteHappenings(
  ctx: ServiceContext,
  companyId: string,
  of: NotesOf,
  happening: NoteHappening,
  window: NewestFirstWindow,
): Promise<NoteHappeningView[]> {
  const rows = await listNoteHappenings(ctx.db, companyId, of, happening, window);
  return rows.map((row) => ({
    happening,
    at: (happening === 'created' ? row.createdAt : happening === 'edited' ? row.editedAt : row.deletedAt)!,
    noteId: row.id,
    applicationId: row.applicationId,
    body: row.body,
    actor: happening === 'deleted' ? { userId: row.deletedByUserId, apiKeyId: row.deletedByApiKeyId } : authorOf(row),
  }));
}

export async function noteHappeningCounts(ctx: ServiceContext, companyId: string, of: NotesOf): Promise<Record<NoteHappening, number>> {
  return countNoteHappenings(ctx.db, companyId, of);
}
