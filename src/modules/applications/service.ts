import { randomUUID } from 'node:crypto';
import { CHANGED_SINCE, endPage, NEWEST_FIRST, startPage, toPage, type NewestFirstWindow, type Ordering, type Page, type PageRequest } from '../../shared/pagination.ts';

/** History rows by (changedAt, is a move, id), newest first: a submission sorts before a move of its millisecond. */
const HISTORY_NEWEST_FIRST: Ordering = { name: 'history', keys: ['timestamptz', 'boolean', 'uuid'], direction: 'desc' };
import { withTransaction, type Principal, type ServiceContext } from '../../shared/context.ts';
import { ConflictError, DomainError, NotFoundError, ValidationError } from '../../shared/errors.ts';
import { commitStagedFile, discardStagedFile, stageCandidateFile, uploaderOf, type StagedFile } from '../documents/service.ts';
import {
  assertNoDuplicateEmails,
  findOrCreateCandidate,
  getCandidate,
  importCandidateRows,
  type ApplicantInput,
  type CandidateView,
} from '../candidates/service.ts';
import { MAX_IMPORT_RESUMES, type ImportCandidatesBody, type ResumeInput } from '../candidates/schemas.ts';
import { getJobListing, type JobListingView, type LanguageOptions } from '../job-listings/service.ts';
import { reasonForMove, rejectionReasonsOf, type RejectionReasonRef } from '../companies/service.ts';
import { eventInsertValues } from '../../infra/outbox/record-event.ts';
import { addCandidatesToPipeline, assertListingAcceptsApplications, enterPipeline } from './pipeline.ts';
import {
  findApplication,
  listApplications as listApplicationRows,
  clearPersonalTexts,
  deleteApplicationRows,
  listApplicationsOfCandidate,
  listHistoryOfApplications,
  listStatusHistory,
  findApplicationVersion,
  moveApplicationIfVersion,
  countStageMoves,
  listStageMoves,
  type StageMoveRow,
  type StageMovesOf,
  type ApplicationWithCandidate,
} from './repo.ts';
import type { ApplicationListQuery, SubmitApplicationBody, UpdateStatusBody } from './schemas.ts';
import { decideMove, funnelRank, type ApplicationStage } from './stages.ts';
import {
  toStatusChangeView,
  toApplicationSummaryView,
  type ApplicationSummaryView,
  type StatusChangeView,
} from './view.ts';
import { isTransientTransactionError, sqlState } from '../../db/client.ts';

export type ApplicationView = ApplicationSummaryView & { jobListing: JobListingView };

/** An application as answered, and the language of its embedded listing's texts (Content-Language). */
export interface PresentedApplication {
  application: ApplicationView;
  language: string;
}

/**
 * The application with its embedded candidate and job listing, the listing presented by the job
 * listings module exactly as GET /job-listings/{id} would (language negotiation included).
 */
export async function getApplication(
  ctx: ServiceContext,
  companyId: string,
  id: string,
  options: LanguageOptions = {},
): Promise<PresentedApplication> {
  const found = await findApplicationVersion(ctx.db, companyId, id);
  if (!found) throw new NotFoundError('Application');
  const { listing, language } = await getJobListing(ctx, companyId, found.row.jobListingId, options.acceptLanguage);
  return { application: { ...summaryOf(found), jobListing: listing }, language };
}

/** The application as answered, its candidate embedded (read with it: every application has one). */
function summaryOf({ row, candidate }: ApplicationWithCandidate): ApplicationSummaryView {
  if (!candidate) throw new Error(`application ${row.id} has no candidate ${row.candidateId}`);
  return toApplicationSummaryView(row, candidate);
}

export async function listApplications(
  ctx: ServiceContext,
  companyId: string,
  query: ApplicationListQuery,
): Promise<Page<ApplicationSummaryView>> {
  const appliedFrom = query.appliedFrom ? new Date(query.appliedFrom) : undefined;
  const appliedTo = query.appliedTo ? new Date(query.appliedTo) : undefined;
  // A period [appliedFrom, appliedTo), as the audit log's [from, to): an empty or reversed one is a mistake.
  if (appliedFrom && appliedTo && appliedTo <= appliedFrom) throw ValidationError.field('appliedTo', 'must be after appliedFrom');
  const q = query.q?.trim();
  if (q === '') throw ValidationError.field('q', 'must contain something other than spaces');
  const filters = {
    jobListingId: query.jobListingId,
    candidateId: query.candidateId,
    statuses: query.status ? [...new Set(query.status)].sort() : undefined,
    updatedSince: query.updatedSince ? new Date(query.updatedSince) : undefined,
    sources: query.source ? [...new Set(query.source)].sort() : undefined,
    appliedFrom,
    appliedTo,
    q,
  };
  const ordering = filters.updatedSince ? CHANGED_SINCE : NEWEST_FIRST;
  const position = startPage(ctx.secrets, query, 'applications', ordering, { companyId, ...filters });
  const { rows: fetched, total } = await listApplicationRows(ctx.db, companyId, filters, position);
  const { rows, ...cursors } = endPage(fetched, position, ({ row }) =>
    ordering.sync ? [row.updatedAt, row.id] : [row.appliedAt, row.id],
  );
  return toPage(rows.map(summaryOf), total, position, cursors);
}

/**
 * Submits an external application: the candidate is matched by email within the company (or
 * created), the listing must be ACTIVE, and a candidate applies to a listing once (409 naming the
 * existing application). Candidate, application, first history row and events commit together.
 * A résumé (`resume`) is taken in and stored first (the documents module's checks: 413, 415, 422),
 * then its row commits with the application; if the application is refused, its bytes go too.
 */
export async function submitApplication(
  ctx: ServiceContext,
  principal: Principal,
  body: SubmitApplicationBody,
  options: LanguageOptions & { maxFileBytes?: number } = {},
): Promise<PresentedApplication> {
  const { companyId } = principal;
  const source = body.source ?? 'EXTERNAL';
  const resume = body.resume ? await stageResume(ctx, companyId, body.resume, options.maxFileBytes) : undefined;
  const uploader = resume ? await uploaderOf(ctx, principal) : undefined;
  const now = ctx.clock.now();
  let id: string;
  try {
    id = await withTransaction(ctx, async (tx) => {
      await assertListingAcceptsApplications(tx, companyId, body.jobListingId);
      const { candidate } = await findOrCreateCandidate(tx, companyId, body.candidate, source, now);
      const entered = await enterPipeline(
        tx,
        { companyId, jobListingId: body.jobListingId, source, apiKeyId: principal.apiKeyId, now },
        [{ candidateId: candidate.id, coverLetter: body.coverLetter }],
      );
      const { application, created } = entered.get(candidate.id)!;
      if (!created) {
        throw new ConflictError('This candidate has already applied to this job listing', [
          { field: 'existingApplicationId', message: application.id },
        ]);
      }
      if (resume) await commitStagedFile(tx, companyId, resume, { candidateId: candidate.id, applicationId: application.id, uploader: uploader! });
      return application.id;
    });
  } catch (error) {
    if (resume) await discardStagedFile(ctx, resume);
    throw error;
  }
  return getApplication(ctx, companyId, id, options);
}

/** An application a candidate sends themself (the job board's and careers pages' form). */
export interface CandidateApplicationInput {
  companyId: string;
  jobListingId: string;
  /** CAREERS_PAGE for the job board and careers pages. */
  source: string;
  candidate: ApplicantInput;
  coverLetter?: string | undefined;
  /** The résumé's bytes, streamed (taken in with the documents module's checks: 413, 415, 422). */
  resume?: { fileName: string; content: AsyncIterable<Uint8Array> } | undefined;
}

export interface CandidateApplicationResult {
  applicationId: string;
  candidateId: string;
  /** The stored résumé's id (null without one). */
  resumeFileId: string | null;
}

/**
 * Submits an application the candidate sends themself, as submitApplication does for an
 * integration (candidate matched by e-mail or created, ACTIVE listing, 409 for a second
 * application to the same listing, application.created), the résumé uploaded by the candidate
 * (uploader CANDIDATE). The caller (boards module) has checked the board and its protections.
 */
export async function submitCandidateApplication(
  ctx: ServiceContext,
  input: CandidateApplicationInput,
  limits: { maxFileBytes: number },
): Promise<CandidateApplicationResult> {
  const { companyId, source } = input;
  const resume = input.resume
    ? await stageCandidateFile(
        ctx,
        companyId,
        { kind: 'RESUME', fileName: input.resume.fileName, source: { kind: 'stream', stream: input.resume.content } },
        { maxBytes: limits.maxFileBytes },
      )
    : undefined;
  const now = ctx.clock.now();
  try {
    return await withTransaction(ctx, async (tx) => {
      await assertListingAcceptsApplications(tx, companyId, input.jobListingId);
      const { candidate } = await findOrCreateCandidate(tx, companyId, input.candidate, source, now);
      const entered = await enterPipeline(tx, { companyId, jobListingId: input.jobListingId, source, apiKeyId: null, now }, [
        { candidateId: candidate.id, coverLetter: input.coverLetter },
      ]);
      const { application, created } = entered.get(candidate.id)!;
      if (!created) {
        throw new ConflictError('This candidate has already applied to this job listing', [
          { field: 'existingApplicationId', message: application.id },
        ]);
      }
      const file = resume
        ? await commitStagedFile(tx, companyId, resume, {
            candidateId: candidate.id,
            applicationId: application.id,
            uploader: { type: 'CANDIDATE', id: null, label: 'Candidate (job board)' },
          })
        : undefined;
      return { applicationId: application.id, candidateId: candidate.id, resumeFileId: file?.id ?? null };
    });
  } catch (error) {
    if (resume) await discardStagedFile(ctx, resume);
    throw error;
  }
}

/** Stores a résumé's bytes (documents module) before the transaction that names it; `at`: its field path. */
async function stageResume(
  ctx: ServiceContext,
  companyId: string,
  resume: ResumeInput,
  maxBytes: number | undefined,
  at = 'resume',
): Promise<StagedFile> {
  if ((resume.contentBase64 === undefined) === (resume.url === undefined)) {
    throw ValidationError.field(`${at}.contentBase64`, 'exactly one of contentBase64 and url is required');
  }
  if (maxBytes === undefined) throw new Error('a résumé needs maxFileBytes');
  const source =
    resume.contentBase64 !== undefined
      ? { kind: 'base64' as const, data: resume.contentBase64, field: `${at}.contentBase64` }
      : { kind: 'url' as const, url: resume.url!, field: `${at}.url` };
  try {
    return await stageCandidateFile(ctx, companyId, { kind: 'RESUME', fileName: resume.fileName, source }, { maxBytes });
  } catch (error) {
    // 413 and 415 name no field: the message says which résumé.
    if (error instanceof DomainError && (error.code === 'PAYLOAD_TOO_LARGE' || error.code === 'UNSUPPORTED_MEDIA_TYPE')) {
      throw new DomainError(error.code, `${at}: ${error.message}`);
    }
    throw error;
  }
}

/**
 * Tries of a status move before it answers 409. A try is lost only to a move of the same row that
 * committed meanwhile, so with up to this many concurrent movers every one gets through.
 */
const MOVE_TRIES = 20;

/**
 * Moves an application to any stage. Of two concurrent moves guarded by the same expectedStatus
 * exactly one succeeds and the other gets 409. The same stage again is a 200 that changes nothing
 * and emits nothing.
 *
 * Decided on a plain read (the row, its version and its candidate: decideMove), written by one
 * statement conditional on the row still being the version read (the move, its history row and its
 * outbox event together): two round trips, no transaction held open. A try lost to a concurrent
 * move reads again; after MOVE_TRIES lost tries the answer is 409. The time is read after the
 * version the move is written over was committed, so the history's order is the order the moves
 * happened in. The embedded listing does not change with the move: it is presented meanwhile.
 *
 * A move into REJECTED or WITHDRAWN may give one of the company's rejection reasons (`reasonId`),
 * checked by the companies module (reasonForMove: 422 for a wrong one, or for none when the company
 * requires one) while the application is read; every other move reads nothing more. The reason is
 * written by the same statement (on the row, its history row and its event).
 */
export async function updateApplicationStatus(
  ctx: ServiceContext,
  principal: Principal,
  id: string,
  body: UpdateStatusBody,
  options: LanguageOptions = {},
): Promise<PresentedApplication> {
  const { companyId } = principal;
  const checkedReason = reasonForMove(ctx, companyId, body.status, body.reasonId);
  checkedReason.catch(() => {}); // awaited below, after the application is found (404 first)
  let listing: Promise<{ listing: JobListingView; language: string }> | undefined;
  for (let tries = 0; tries < MOVE_TRIES; tries++) {
    const found = await findApplicationVersion(ctx.db, companyId, id);
    if (!found) throw new NotFoundError('Application');
    const rejectionReason = await checkedReason;
    const decision = decideMove(found.row.status as ApplicationStage, body.status, body.expectedStatus);
    if (decision.kind === 'conflict') throw staleStatus(decision.current, body.expectedStatus!);
    if (!listing) {
      listing = getJobListing(ctx, companyId, found.row.jobListingId, options.acceptLanguage);
      listing.catch(() => {}); // awaited below; a move that fails meanwhile must not leave it unhandled
    }
    let row = found.row;
    if (decision.kind === 'move') {
      const now = ctx.clock.now();
      const reason = body.reason ?? null;
      row = {
        ...row,
        status: decision.to,
        updatedAt: now,
        furthestStage: Math.max(row.furthestStage, funnelRank(decision.to)),
        rejectionReasonId: rejectionReason?.id ?? null,
      };
      const moved = await moveApplicationIfVersion(ctx.db, {
        version: found.version,
        history: historyRow(principal, id, decision.from, decision.to, reason, rejectionReason, now),
        eventValues: eventInsertValues({
          companyId,
          type: 'application.status_changed',
          data: {
            application: summaryOf({ row, candidate: found.candidate }),
            previousStatus: decision.from,
            newStatus: decision.to,
            reason,
            rejectionReason,
          },
          occurredAt: now,
        }),
      }).catch((error: unknown) => {
        // The reason was deleted between its check and the write (its foreign key): nothing was written.
        if (rejectionReason && sqlState(error) === '23503') throw ValidationError.field('reasonId', 'is not one of this company\'s rejection reasons');
        throw error;
      });
      if (!moved) continue;
    }
    const presented = await listing;
    return { application: { ...summaryOf({ row, candidate: found.candidate }), jobListing: presented.listing }, language: presented.language };
  }
  throw new ConflictError('The application was moved concurrently again and again; read it again');
}

function historyRow(
  principal: Principal,
  applicationId: string,
  from: ApplicationStage,
  to: ApplicationStage,
  reason: string | null,
  rejectionReason: RejectionReasonRef | null,
  now: Date,
) {
  return {
    id: randomUUID(),
    companyId: principal.companyId,
    applicationId,
    fromStatus: from,
    toStatus: to,
    reason,
    rejectionReasonId: rejectionReason?.id ?? null,
    apiKeyId: principal.apiKeyId,
    changedByUserId: principal.userId ?? null,
    changedAt: now,
  };
}

function staleStatus(current: ApplicationStage, expected: ApplicationStage): ConflictError {
  return new ConflictError(`The application is in ${current}, not in the expected ${expected}`, [
    { field: 'expectedStatus', message: `the application is in ${current}` },
  ]);
}

export async function getApplicationHistory(
  ctx: ServiceContext,
  companyId: string,
  id: string,
  page: PageRequest,
): Promise<Page<StatusChangeView>> {
  if (!(await findApplication(ctx.db, companyId, id))) throw new NotFoundError('Application');
  const position = startPage(ctx.secrets, page, 'application-history', HISTORY_NEWEST_FIRST, { companyId, id });
  const { rows: fetched, total } = await listStatusHistory(ctx.db, companyId, id, position);
  const { rows, ...cursors } = endPage(fetched, position, (row) => [row.changedAt, row.fromStatus !== null, row.id]);
  // The reasons' names as of now (a renamed reason shows its new name); read only if a move gave one.
  const reasons = rows.some((row) => row.rejectionReasonId !== null) ? await rejectionReasonsOf(ctx, companyId) : new Map<string, RejectionReasonRef>();
  return toPage(rows.map((row) => toStatusChangeView(row, reasons)), total, position, cursors);
}

// --- for the notes and the activity timeline ------------------------------------------------------

/** The candidate whose application this is, in the company; undefined for an unknown or another company's id. */
export async function candidateOfApplication(ctx: ServiceContext, companyId: string, applicationId: string): Promise<string | undefined> {
  return (await findApplication(ctx.db, companyId, applicationId))?.candidateId;
}

export type { StageMoveRow, StageMovesOf };

/**
 * The activity timeline's stage moves (the submission, fromStatus null, included): of one
 * application or of all of a candidate's, newest first by (changedAt, id), within the window; and
 * how many there are in all. Read from the history rows, which are kept for good.
 */
export async function stageMoves(ctx: ServiceContext, companyId: string, of: StageMovesOf, window: NewestFirstWindow): Promise<StageMoveRow[]> {
  return listStageMoves(ctx.db, companyId, of, window);
}

export async function stageMoveCount(ctx: ServiceContext, companyId: string, of: StageMovesOf): Promise<number> {
  return countStageMoves(ctx.db, companyId, of);
}

// --- candidates in pipelines ----------------------------------------------------------------------
// The applications module owns the pipeline: what joins candidates to listings lives here, so the
// candidates module never needs this one.

export interface CandidateProfileView extends CandidateView {
  applications: Array<{
    id: string;
    jobListingId: string;
    status: ApplicationStage;
    source: string;
    appliedAt: string;
    updatedAt: string;
  }>;
}

/** A candidate with the applications they made to the company's listings, newest first. */
export async function getCandidateProfile(ctx: ServiceContext, companyId: string, id: string): Promise<CandidateProfileView> {
  const candidate = await getCandidate(ctx, companyId, id);
  const applications = await listApplicationsOfCandidate(ctx.db, companyId, id);
  return {
    ...candidate,
    applications: applications.map((application) => ({
      id: application.id,
      jobListingId: application.jobListingId,
      status: application.status as ApplicationStage,
      source: application.source,
      appliedAt: application.appliedAt.toISOString(),
      updatedAt: application.updatedAt.toISOString(),
    })),
  };
}

/** Erasure, in the caller's transaction (or one of its own): cover letters and move reasons of the candidate's applications go; answers their ids. */
export async function erasePipelineTexts(ctx: ServiceContext, companyId: string, candidateId: string, now: Date): Promise<string[]> {
  return withTransaction(ctx, (tx) => clearPersonalTexts(tx.db, companyId, candidateId, now));
}

/**
 * Deletes for good the applications in these listings or of these candidates, with their histories
 * and the notes about them (the sample data's removal: what it leaves must be as if they never
 * were, the kept counts and the analytics included). No event. Files tied to them must be gone
 * first. Answers their ids.
 */
export async function deleteApplicationsFor(ctx: ServiceContext, companyId: string, of: { jobListingIds: string[]; candidateIds: string[] }): Promise<string[]> {
  return withTransaction(ctx, (tx) => deleteApplicationRows(tx.db, companyId, of));
}

export interface PipelineExport {
  id: string;
  jobListingId: string;
  status: string;
  source: string;
  coverLetter: string | null;
  appliedAt: string;
  updatedAt: string;
  history: Array<{ fromStatus: string | null; toStatus: string; reason: string | null; rejectionReason: string | null; changedAt: string }>;
}

/** Everything the pipeline stores about a candidate: their applications with texts and full history. */
export async function exportPipelineOf(ctx: ServiceContext, companyId: string, candidateId: string): Promise<PipelineExport[]> {
  const rows = await listApplicationsOfCandidate(ctx.db, companyId, candidateId);
  const history = await listHistoryOfApplications(
    ctx.db,
    companyId,
    rows.map((row) => row.id),
  );
  const reasons = history.some((entry) => entry.rejectionReasonId !== null) ? await rejectionReasonsOf(ctx, companyId) : new Map<string, RejectionReasonRef>();
  return rows.map((row) => ({
    id: row.id,
    jobListingId: row.jobListingId,
    status: row.status,
    source: row.source,
    coverLetter: row.coverLetter,
    appliedAt: row.appliedAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    history: history
      .filter((entry) => entry.applicationId === row.id)
      .map((entry) => ({
        fromStatus: entry.fromStatus,
        toStatus: entry.toStatus,
        reason: entry.reason,
        rejectionReason: entry.rejectionReasonId === null ? null : (reasons.get(entry.rejectionReasonId)?.name ?? null),
        changedAt: entry.changedAt.toISOString(),
      })),
  }));
}

export interface ImportRowResult {
  index: number;
  candidateId: string;
  email: string;
  result: 'created' | 'updated';
  applicationId: string | null;
  applicationResult: 'created' | 'existing' | null;
  resumeFileId?: string | null;
}

export interface ImportResultView {
  created: number;
  updated: number;
  applicationsCreated: number;
  results: ImportRowResult[];
}

/**
 * Upserts up to 1,000 candidates by email in one transaction: every row is validated first (the
 * schema, then duplicates within the request), so one bad row writes nothing. With jobListingId
 * each candidate also enters that listing's pipeline (source IMPORTED) unless already in it.
 */
export async function importCandidates(
  ctx: ServiceContext,
  principal: Principal,
  body: ImportCandidatesBody,
  options: { maxFileBytes?: number } = {},
): Promise<ImportResultView> {
  assertNoDuplicateEmails(body.candidates);
  const { companyId } = principal;
  const withResume = body.candidates.flatMap((row, index) => (row.resume ? [index] : []));
  if (withResume.length > MAX_IMPORT_RESUMES) {
    throw ValidationError.field(`candidates[${withResume[MAX_IMPORT_RESUMES]}].resume`, `at most ${MAX_IMPORT_RESUMES} rows of one import may carry a résumé`);
  }
  // Résumés are stored before the transaction (the store is no part of it); their rows commit in it.
  const resumes = new Map<number, StagedFile>();
  try {
    for (const index of withResume) {
      resumes.set(index, await stageResume(ctx, companyId, body.candidates[index].resume!, options.maxFileBytes, `candidates[${index}].resume`));
    }
    const uploader = resumes.size > 0 ? await uploaderOf(ctx, principal) : undefined;
    return await importCandidateRowsWithResumes(ctx, principal, body, resumes, uploader);
  } catch (error) {
    for (const staged of resumes.values()) await discardStagedFile(ctx, staged);
    throw error;
  }
}

async function importCandidateRowsWithResumes(
  ctx: ServiceContext,
  principal: Principal,
  body: ImportCandidatesBody,
  resumes: Map<number, StagedFile>,
  uploader: Awaited<ReturnType<typeof uploaderOf>> | undefined,
): Promise<ImportResultView> {
  const { companyId } = principal;
  const now = ctx.clock.now();

  // Rows are written in a fixed order (see upsertCandidates and enterPipeline), so overlapping
  // imports should not deadlock; if PostgreSQL still aborts one (deadlock or serialization
  // failure), it runs once more (unless it is the caller's transaction, which PostgreSQL aborted).
  const run = () => withTransaction(ctx, async (tx) => {
    if (body.jobListingId) await assertListingAcceptsApplications(tx, companyId, body.jobListingId);
    const imported = await importCandidateRows(tx, companyId, body.candidates, now);
    const pipeline = body.jobListingId
      ? await addCandidatesToPipeline(tx, {
          companyId,
          jobListingId: body.jobListingId,
          candidateIds: imported.map((candidate) => candidate.id),
          source: 'IMPORTED',
          apiKeyId: principal.apiKeyId,
          userId: principal.userId,
          now,
        })
      : undefined;

    const resumeFileIds = new Map<number, string>();
    for (const [index, staged] of resumes) {
      const candidateId = imported[index].id;
      const file = await commitStagedFile(tx, companyId, staged, { candidateId, applicationId: pipeline?.get(candidateId)?.id ?? null, uploader: uploader! });
      resumeFileIds.set(index, file.id);
    }
    const results = imported.map((candidate, index): ImportRowResult => {
      const application = pipeline?.get(candidate.id);
      return {
        index,
        candidateId: candidate.id,
        email: candidate.email,
        result: candidate.inserted ? 'created' : 'updated',
        applicationId: application?.id ?? null,
        applicationResult: application ? (application.created ? 'created' : 'existing') : null,
        ...(resumes.size > 0 ? { resumeFileId: resumeFileIds.get(index) ?? null } : {}),
      };
    });
    const created = imported.filter((candidate) => candidate.inserted).length;
    return {
      created,
      updated: imported.length - created,
      applicationsCreated: results.filter((row) => row.applicationResult === 'created').length,
      results,
    };
  });
  try {
    return await run();
  } catch (error) {
    if (ctx.inTransaction || !isTransientTransactionError(error)) throw error;
    return run();
  }
}
