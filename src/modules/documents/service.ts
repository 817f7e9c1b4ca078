// Candidate files (README.md): upload (a stream, base64 or a URL), list, read, download (through
// the API or a signed link), delete; their part of a candidate's erasure and export; the sweep
// that deletes stored objects left behind. The bytes go to the file store (ctx.fileStore), the
// metadata to candidate_files; an object is written before its row, and a mark in
// candidate_file_deletions covers every moment where one exists without the other.
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { UrlDownloader } from '../../adapters/outbound/downloader.ts';
import type { FileStore } from '../../adapters/file-store/file-store.ts';
import { recordEvent } from '../../infra/outbox/record-event.ts';
import { withTransaction, type Principal, type ServiceContext } from '../../shared/context.ts';
import { DomainError, ForbiddenError, NotFoundError, ValidationError } from '../../shared/errors.ts';
import { endPage, NEWEST_FIRST, startPage, toPage, type Page, type PageRequest } from '../../shared/pagination.ts';
import { listApiKeys } from '../api-keys/service.ts';
import { getCandidate } from '../candidates/service.ts';
import { getUser } from '../users/service.ts';
import type { FileKind } from './file-rules.ts';
import { sanitizeFileName } from './file-rules.ts';
import { fileTooLarge, takeIn } from './intake.ts';
import {
  cancelDeletion,
  deleteCandidateFile as deleteCandidateFileRow,
  deleteFilesOfCandidate,
  findCandidateFile,
  findCandidateFileById,
  findDueDeletions,
  findFilesAwaitingText,
  findFilesOfCandidate,
  forgetDeletions,
  insertCandidateFile,
  isApplicationOfCandidate,
  listCandidateFiles as listCandidateFileRows,
  postponeDeletion,
  scheduleDeletions,
  type CandidateFileRow,
  recordFileText,
} from './repo.ts';
import { findContactSuggestions, type ContactSuggestions } from './text/contact-suggestions.ts';
import { extractDocumentText } from './text/extract.ts';

declare module '../../shared/context.ts' {
  interface ServiceContext {
    /** Fetches files given as a URL through the outbound address guard (built once in src/deps.ts); none: such uploads are refused. */
    urlDownloader?: UrlDownloader | undefined;
  }
}

/** How long a signed download link works. */
export const SIGNED_URL_LIFETIME_SECONDS = 5 * 60;
/** The MAC purpose of download links: a tag made for anything else (a cursor) is not one. */
const SIGNED_URL_PURPOSE = 'candidate-file-download';
/** An upload's object is deleted by the sweep if its row has not committed this long after it started. */
const UNFINISHED_UPLOAD_MS = 60 * 60 * 1000;
/** Keys one sweep run deletes at most. */
const SWEEP_BATCH = 100;

export interface Uploader {
  /** CANDIDATE: the candidate themself, through the job board or careers pages (id null). */
  type: 'USER' | 'API_KEY' | 'CANDIDATE';
  id: string | null;
  label: string;
}

export interface CandidateFileView {
  id: string;
  candidateId: string;
  applicationId: string | null;
  kind: string;
  fileName: string;
  size: number;
  contentType: string;
  uploadedBy: Uploader;
  createdAt: string;
  /** Where the bytes are fetched (with the candidates:read scope). */
  contentPath: string;
  /** Whether its text was taken yet (PENDING), and how that went. */
  textStatus: string;
  /** Contact details found in its text: suggestions, never written over the candidate's. */
  contactSuggestions: ContactSuggestions | null;
}

export function toCandidateFileView(row: CandidateFileRow): CandidateFileView {
  return {
    id: row.id,
    candidateId: row.candidateId,
    applicationId: row.applicationId,
    kind: row.kind,
    fileName: row.fileName,
    size: row.size,
    contentType: row.contentType,
    uploadedBy: { type: row.uploadedByType as Uploader['type'], id: row.uploadedById, label: row.uploadedByLabel },
    createdAt: row.createdAt.toISOString(),
    contentPath: `/public/v1/candidates/${row.candidateId}/files/${row.id}/content`,
    textStatus: row.textStatus,
    contactSuggestions: row.contactSuggestions,
  };
}

/** Who is uploading: the signed-in user (their name, else e-mail) or the API key (its label). */
export async function uploaderOf(ctx: ServiceContext, principal: Principal): Promise<Uploader> {
  if (principal.userId) {
    const user = await getUser(ctx, principal.userId);
    return { type: 'USER', id: principal.userId, label: user?.name || user?.email || 'user' };
  }
  const key = principal.apiKeyId ? (await listApiKeys(ctx, principal.companyId)).find((candidate) => candidate.id === principal.apiKeyId) : undefined;
  return { type: 'API_KEY', id: principal.apiKeyId, label: key?.label ?? 'API key' };
}

/** Where a file's bytes come from. */
export type FileSource =
  | { kind: 'stream'; stream: AsyncIterable<Uint8Array> }
  | { kind: 'base64'; data: string; field: string }
  | { kind: 'url'; url: string; field: string };

export interface AddFileInput {
  candidateId: string;
  kind: FileKind;
  fileName: string;
  applicationId?: string | null | undefined;
  source: FileSource;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Base64 (standard alphabet, padded; line breaks allowed) to bytes: 422 when it is not, 413 past the limit. */
function decodeBase64(data: string, field: string, maxBytes: number): Buffer {
  const compact = data.replace(/[\r\n]/g, '');
  if (compact.length % 4 !== 0 || !BASE64.test(compact)) throw ValidationError.field(field, 'is not valid base64');
  const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0;
  if ((compact.length / 4) * 3 - padding > maxBytes) throw fileTooLarge(maxBytes);
  return Buffer.from(compact, 'base64');
}

async function* once(bytes: Buffer): AsyncIterable<Uint8Array> {
  yield bytes;
}

/** The bytes of a URL source, through the guard: 422 for a refused URL or a failed fetch, 413 when it says it is too large. */
async function downloadSource(ctx: ServiceContext, url: string, field: string, maxBytes: number) {
  if (!ctx.urlDownloader) throw ValidationError.field(field, 'files cannot be fetched from a URL on this server');
  const result = await ctx.urlDownloader.download(url);
  if (result.kind === 'refused') throw ValidationError.field(field, result.problem);
  if (result.kind === 'status') throw ValidationError.field(field, `could not be fetched: the server answered HTTP ${result.statusCode} (redirects are not followed)`);
  if (result.kind === 'failure') throw ValidationError.field(field, `could not be fetched (${result.failure.replaceAll('_', ' ')})`);
  if (result.contentLength !== undefined && result.contentLength > maxBytes) {
    await result.body[Symbol.asyncIterator]().return?.();
    throw fileTooLarge(maxBytes);
  }
  return result;
}

/** A file's bytes stored, its row not yet written: commitStagedFile or discardStagedFile follows. */
export interface StagedFile {
  id: string;
  key: string;
  kind: FileKind;
  fileName: string;
  size: number;
  contentType: string;
}

/**
 * Takes a file's bytes in (413, 415, 422: nothing stored) and writes them to the store under a new
 * key, marked for deletion an hour on: until a row names it (commitStagedFile), the sweep may
 * delete it. Runs outside any transaction (the store is no part of one).
 */
export async function stageCandidateFile(
  ctx: ServiceContext,
  companyId: string,
  input: { kind: FileKind; fileName: string; source: FileSource },
  limits: { maxBytes: number },
): Promise<StagedFile> {
  const store = requireStore(ctx);
  const { maxBytes } = limits;
  const { source } = input;
  const download = source.kind === 'url' ? await downloadSource(ctx, source.url, source.field, maxBytes) : undefined;
  const bytes: AsyncIterable<Uint8Array> =
    source.kind === 'stream' ? source.stream : source.kind === 'base64' ? once(decodeBase64(source.data, source.field, maxBytes)) : download!.body;
  const fetchFailed = (error: unknown): DomainError | undefined => {
    if (error instanceof DomainError || source.kind !== 'url') return undefined;
    return ValidationError.field(source.field, download?.timedOut() ? 'could not be fetched in time' : `could not be fetched (${(error as Error).message})`);
  };

  let intake;
  try {
    intake = await takeIn(bytes, maxBytes);
  } catch (error) {
    throw fetchFailed(error) ?? error;
  }
  const id = randomUUID();
  const key = `candidates/${companyId}/${id}`;
  const started = ctx.clock.now();
  // The mark first: should this process die before the row commits, the sweep deletes the object.
  await scheduleDeletions(ctx.db, [key], new Date(started.getTime() + UNFINISHED_UPLOAD_MS), started);
  try {
    const { size } = await store.put(key, intake.body, { contentType: intake.type.contentType });
    return { id, key, kind: input.kind, fileName: sanitizeFileName(input.fileName), size, contentType: intake.type.contentType };
  } catch (error) {
    // put leaves nothing under the key when its body fails.
    await cancelDeletion(ctx.db, key);
    throw fetchFailed(error) ?? error;
  }
}

/**
 * Writes the staged file's row and `candidate.file_added`, in the caller's transaction
 * (withTransaction), and lifts its deletion mark. The caller has checked the candidate and the
 * application are the company's and go together.
 */
export async function commitStagedFile(
  ctx: ServiceContext,
  companyId: string,
  staged: StagedFile,
  owner: { candidateId: string; applicationId: string | null; uploader: Uploader },
): Promise<CandidateFileView> {
  return withTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    if (!(await cancelDeletion(tx.db, staged.key))) throw new Error('the upload took longer than its deletion mark allows');
    const row: CandidateFileRow = {
      id: staged.id,
      companyId,
      candidateId: owner.candidateId,
      applicationId: owner.applicationId,
      kind: staged.kind,
      fileName: staged.fileName,
      size: staged.size,
      contentType: staged.contentType,
      storageKey: staged.key,
      uploadedByType: owner.uploader.type,
      uploadedById: owner.uploader.id,
      uploadedByLabel: owner.uploader.label,
      createdAt: now,
      textStatus: 'PENDING',
      extractedText: null,
      contactSuggestions: null,
    };
    await insertCandidateFile(tx.db, row);
    const view = toCandidateFileView(row);
    await recordEvent(tx.db, { companyId, type: 'candidate.file_added', data: { file: view }, occurredAt: now });
    return view;
  });
}

/** The staged file's transaction failed: its object goes now (its mark, left in place, covers a failure here). */
export async function discardStagedFile(ctx: ServiceContext, staged: StagedFile): Promise<void> {
  await purgeObjects(ctx, [staged.key]);
}

/**
 * Stores a file of the company's candidate: checks the candidate and the application (the
 * candidate's, 422 otherwise), stages the bytes (413, 415, 422: nothing stored), then writes its
 * row and `candidate.file_added` in one transaction.
 */
export async function addCandidateFile(
  ctx: ServiceContext,
  companyId: string,
  input: AddFileInput,
  uploader: Uploader,
  limits: { maxBytes: number },
): Promise<CandidateFileView> {
  await getCandidate(ctx, companyId, input.candidateId);
  const applicationId = input.applicationId ?? null;
  if (applicationId && !(await isApplicationOfCandidate(ctx.db, companyId, applicationId, input.candidateId))) {
    throw ValidationError.field('applicationId', 'is not an application of this candidate');
  }
  const staged = await stageCandidateFile(ctx, companyId, input, limits);
  try {
    return await withTransaction(ctx, async (tx) => {
      // Erased meanwhile: 404, and the object goes.
      await getCandidate(tx, companyId, input.candidateId);
      return commitStagedFile(tx, companyId, staged, { candidateId: input.candidateId, applicationId, uploader });
    });
  } catch (error) {
    await discardStagedFile(ctx, staged);
    throw error;
  }
}

function requireStore(ctx: ServiceContext): FileStore {
  if (!ctx.fileStore) throw new Error('no file store configured');
  return ctx.fileStore;
}

export async function listCandidateFiles(ctx: ServiceContext, companyId: string, candidateId: string, query: PageRequest): Promise<Page<CandidateFileView>> {
  await getCandidate(ctx, companyId, candidateId);
  const position = startPage(ctx.secrets, query, 'candidate-files', NEWEST_FIRST, { companyId, candidateId });
  const { rows: fetched, total } = await listCandidateFileRows(ctx.db, companyId, candidateId, position);
  const { rows, ...cursors } = endPage(fetched, position, (row) => [row.createdAt, row.id]);
  return toPage(rows.map(toCandidateFileView), total, position, cursors);
}

async function findFile(ctx: ServiceContext, companyId: string, candidateId: string, fileId: string): Promise<CandidateFileRow> {
  const row = await findCandidateFile(ctx.db, companyId, candidateId, fileId);
  if (!row) throw new NotFoundError('File');
  return row;
}

export async function getCandidateFile(ctx: ServiceContext, companyId: string, candidateId: string, fileId: string): Promise<CandidateFileView> {
  return toCandidateFileView(await findFile(ctx, companyId, candidateId, fileId));
}

/** A file's metadata and its bytes as a stream. */
export interface FileContent {
  file: CandidateFileView;
  body: Readable;
}

async function openContent(ctx: ServiceContext, row: CandidateFileRow): Promise<FileContent> {
  const body = await requireStore(ctx).get(row.storageKey);
  if (!body) throw new NotFoundError('File content');
  return { file: toCandidateFileView(row), body };
}

export async function openCandidateFileContent(ctx: ServiceContext, companyId: string, candidateId: string, fileId: string): Promise<FileContent> {
  return openContent(ctx, await findFile(ctx, companyId, candidateId, fileId));
}

/** The signature of a download link: the file and the expiry (seconds since 1970), under the server's MAC key. */
function linkSignature(ctx: ServiceContext, fileId: string, expires: number): string {
  return ctx.secrets.tag(`${fileId}.${expires}`, SIGNED_URL_PURPOSE);
}

/** A link that downloads the file without an API key for SIGNED_URL_LIFETIME_SECONDS. */
export async function createDownloadLink(
  ctx: ServiceContext,
  companyId: string,
  candidateId: string,
  fileId: string,
  baseUrl: string,
): Promise<{ url: string; expiresAt: string }> {
  const row = await findFile(ctx, companyId, candidateId, fileId);
  const expires = Math.floor(ctx.clock.now().getTime() / 1000) + SIGNED_URL_LIFETIME_SECONDS;
  const query = new URLSearchParams({ expires: String(expires), signature: linkSignature(ctx, row.id, expires) });
  return { url: `${baseUrl}/file-downloads/${row.id}?${query}`, expiresAt: new Date(expires * 1000).toISOString() };
}

/** The file a download link names: 403 when the signature does not hold or the link has expired, 404 when the file is gone. */
export async function openSignedDownload(ctx: ServiceContext, fileId: string, expires: string, signature: string): Promise<FileContent> {
  const seconds = /^\d{1,12}$/.test(expires) ? Number(expires) : NaN;
  if (!Number.isSafeInteger(seconds) || !ctx.secrets.checkTag(`${fileId}.${seconds}`, signature, SIGNED_URL_PURPOSE)) {
    throw new ForbiddenError('This download link is not valid');
  }
  if (seconds * 1000 <= ctx.clock.now().getTime()) throw new ForbiddenError('This download link has expired: ask for a new one');
  const row = await findCandidateFileById(ctx.db, fileId);
  if (!row) throw new NotFoundError('File');
  return openContent(ctx, row);
}

/** Deletes the file: its row and `candidate.file_removed` in one transaction, the object right after (the sweep retries). */
export async function deleteCandidateFile(ctx: ServiceContext, companyId: string, candidateId: string, fileId: string): Promise<void> {
  const row = await findFile(ctx, companyId, candidateId, fileId);
  const now = ctx.clock.now();
  const deleted = await withTransaction(ctx, async (tx) => {
    const gone = await deleteCandidateFileRow(tx.db, companyId, row.id);
    if (!gone) return undefined;
    await scheduleDeletions(tx.db, [gone.storageKey], now, now);
    await recordEvent(tx.db, { companyId, type: 'candidate.file_removed', data: { file: toCandidateFileView(gone) }, occurredAt: now });
    return gone;
  });
  if (!deleted) throw new NotFoundError('File');
  await purgeObjects(ctx, [deleted.storageKey]);
}

/**
 * A candidate's erasure, in the caller's transaction: deletes the rows of their files and marks
 * their objects for deletion (due at once). Answers the keys: the caller deletes them from the
 * store after its commit (purgeObjects); the sweep retries what a crash leaves.
 */
export async function eraseFilesOfCandidate(ctx: ServiceContext, companyId: string, candidateId: string, now: Date): Promise<string[]> {
  return withTransaction(ctx, async (tx) => {
    const rows = await deleteFilesOfCandidate(tx.db, companyId, candidateId);
    const keys = rows.map((row) => row.storageKey);
    await scheduleDeletions(tx.db, keys, now, now);
    return keys;
  });
}

/** Deletes marked objects from the store now, forgetting each mark once done; a failure is left to the sweep. */
export async function purgeObjects(ctx: ServiceContext, keys: string[]): Promise<void> {
  const store = requireStore(ctx);
  const done: string[] = [];
  for (const key of keys) {
    try {
      await store.delete(key);
      done.push(key);
    } catch {
      // The mark stays: sweepFileDeletions tries again.
    }
  }
  await forgetDeletions(ctx.db, done);
}

/** The scheduled sweep: deletes the objects whose mark is due (erasures and deletes a crash interrupted, unfinished uploads). */
export async function sweepFileDeletions(ctx: ServiceContext): Promise<number> {
  if (!ctx.fileStore) return 0;
  const now = ctx.clock.now();
  const keys = await findDueDeletions(ctx.db, now, SWEEP_BATCH);
  const done: string[] = [];
  for (const key of keys) {
    try {
      await ctx.fileStore.delete(key);
      done.push(key);
    } catch {
      await postponeDeletion(ctx.db, key, new Date(now.getTime() + 5 * 60_000));
    }
  }
  await forgetDeletions(ctx.db, done);
  return done.length;
}

/** The candidate's files (metadata), oldest first, for their data export. */
export async function exportFilesOf(ctx: ServiceContext, companyId: string, candidateId: string): Promise<CandidateFileView[]> {
  return (await findFilesOfCandidate(ctx.db, companyId, candidateId)).map(toCandidateFileView);
}

const TEXT_BATCH = 5;

/**
 * The scheduled work: takes the text of files stored since the last round (each in a worker thread
 * with its own heap and deadline, text/extract.ts) and keeps it with the contact details found in
 * it. A file that cannot be read is marked FAILED and not tried again.
 */
export async function extractDueFileTexts(ctx: ServiceContext): Promise<number> {
  if (!ctx.fileStore) return 0;
  const rows = await findFilesAwaitingText(ctx.db, TEXT_BATCH);
  for (const row of rows) {
    const body = await ctx.fileStore.get(row.storageKey);
    if (!body) {
      await recordFileText(ctx.db, row.id, { textStatus: 'FAILED', extractedText: null, contactSuggestions: null });
      continue;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    const outcome = await extractDocumentText(Buffer.concat(chunks), row.contentType);
    await recordFileText(
      ctx.db,
      row.id,
      outcome.kind === 'text'
        ? { textStatus: 'DONE', extractedText: outcome.text, contactSuggestions: findContactSuggestions(outcome.text) }
        : { textStatus: outcome.kind === 'none' ? 'NONE' : 'FAILED', extractedText: null, contactSuggestions: null },
    );
  }
  return rows.length;
}
