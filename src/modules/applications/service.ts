import { randomUUID } from 'node:crypto';
import { limitOffset, toPage, type Page, type PageRequest } from '../../http/pagination.ts';
import type { Principal, ServiceContext } from '../../shared/context.ts';
import { ConflictError, NotFoundError } from '../../shared/errors.ts';
import { findOrCreateCandidate } from '../candidates/service.ts';
import { getJobListing, type JobListingView, type LanguageOptions } from '../job-listings/service.ts';
import { recordEvent } from '../outbox/record-event.ts';
import { assertListingAcceptsApplications, enterPipeline } from './pipeline.ts';
import {
  findApplication,
  insertStatusHistory,
  listApplications as listApplicationRows,
  listStatusHistory,
  lockApplication,
  updateApplicationStatus as moveApplicationRow,
} from './repo.ts';
import type { ApplicationListQuery, SubmitApplicationBody, UpdateStatusBody } from './schemas.ts';
import { decideMove, type ApplicationStage } from './stages.ts';
import { toApplicationSummaryView, toStatusChangeView, type ApplicationSummaryView, type StatusChangeView } from './view.ts';

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
  const found = await findApplication(ctx.db, companyId, id);
  if (!found) throw new NotFoundError('Application');
  const { listing, language } = await getJobListing(
    ctx,
    companyId,
    found.application.jobListingId,
    options.acceptLanguage,
    options.translator,
  );
  return { application: { ...toApplicationSummaryView(found.application, found.candidate), jobListing: listing }, language };
}

export async function listApplications(
  ctx: ServiceContext,
  companyId: string,
  query: ApplicationListQuery,
): Promise<Page<ApplicationSummaryView>> {
  const { rows, total } = await listApplicationRows(
    ctx.db,
    companyId,
    {
      jobListingId: query.jobListingId,
      candidateId: query.candidateId,
      statuses: query.status,
      updatedSince: query.updatedSince ? new Date(query.updatedSince) : undefined,
    },
    limitOffset(query),
  );
  return toPage(
    rows.map((row) => toApplicationSummaryView(row.application, row.candidate)),
    total,
    query,
  );
}

/**
 * Submits an external application: the candidate is matched by email within the company (or
 * created), the listing must be ACTIVE, and a candidate applies to a listing once (409 naming the
 * existing application). Candidate, application, first history row and events commit together.
 */
export async function submitApplication(
  ctx: ServiceContext,
  principal: Principal,
  body: SubmitApplicationBody,
  options: LanguageOptions = {},
): Promise<PresentedApplication> {
  const { companyId } = principal;
  const now = ctx.clock.now();
  const source = body.source ?? 'EXTERNAL';
  const id = await ctx.db.transaction(async (tx) => {
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
    return application.id;
  });
  return getApplication(ctx, companyId, id, options);
}

/**
 * Moves an application to any stage. The row is locked and the update is conditional on the stage
 * read, so of two concurrent moves guarded by the same expectedStatus exactly one succeeds and the
 * other gets 409. The same stage again is a 200 that changes nothing and emits nothing.
 */
export async function updateApplicationStatus(
  ctx: ServiceContext,
  principal: Principal,
  id: string,
  body: UpdateStatusBody,
  options: LanguageOptions = {},
): Promise<PresentedApplication> {
  const { companyId } = principal;
  await ctx.db.transaction(async (tx) => {
    const current = await lockApplication(tx, companyId, id);
    if (!current) throw new NotFoundError('Application');
    // Read after the lock: a move that waited for another is stamped after it, so the
    // history's order is the order the moves happened in.
    const now = ctx.clock.now();
    const decision = decideMove(current.status as ApplicationStage, body.status, body.expectedStatus);
    if (decision.kind === 'conflict') throw staleStatus(decision.current, body.expectedStatus!);
    if (decision.kind === 'unchanged') return;

    const moved = await moveApplicationRow(tx, id, decision.from, decision.to, now);
    // Cannot happen under the row lock; kept so the invariant holds even without it.
    if (!moved) throw new ConflictError('The application was moved concurrently; read it again');
    const reason = body.reason ?? null;
    await insertStatusHistory(tx, [
      {
        id: randomUUID(),
        companyId,
        applicationId: id,
        fromStatus: decision.from,
        toStatus: decision.to,
        reason,
        apiKeyId: principal.apiKeyId,
        changedAt: now,
      },
    ]);
    const found = await findApplication(tx, companyId, id);
    await recordEvent(tx, {
      companyId,
      type: 'application.status_changed',
      data: {
        application: toApplicationSummaryView(moved, found!.candidate),
        previousStatus: decision.from,
        newStatus: decision.to,
        reason,
      },
      occurredAt: now,
    });
  });
  return getApplication(ctx, companyId, id, options);
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
  const { rows, total } = await listStatusHistory(ctx.db, companyId, id, limitOffset(page));
  return toPage(rows.map(toStatusChangeView), total, page);
}
