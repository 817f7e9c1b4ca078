// Entering candidates into a listing's pipeline: shared by a submitted application (one) and a
// candidate import with jobListingId (up to 1,000), so both keep the same rules, history and events.
import { randomUUID } from 'node:crypto';
import type { ServiceContext } from '../../shared/context.ts';
import { ConflictError, ValidationError } from '../../shared/errors.ts';
import { candidateSummaries } from '../candidates/service.ts';
import { lockJobListingStatus } from '../job-listings/service.ts';
import { recordEvent } from '../../infra/outbox/record-event.ts';
import {
  findApplicationsOfListing,
  insertApplicationsIfAbsent,
  insertStatusHistory,
  type ApplicationRow,
} from './repo.ts';
import { funnelRank, INITIAL_STAGE } from './stages.ts';
import { withCandidate } from './view.ts';

/**
 * Only an ACTIVE listing accepts applications. Called in the transaction that inserts (`tx` from
 * withTransaction): the listing row stays share-locked, so it cannot be closed between this check
 * and the insert.
 */
export async function assertListingAcceptsApplications(ctx: ServiceContext, companyId: string, jobListingId: string): Promise<void> {
  const listing = await lockJobListingStatus(ctx, companyId, jobListingId);
  // Another company's listing reads exactly like a missing one.
  if (!listing) throw ValidationError.field('jobListingId', 'no job listing with this id');
  if (listing.status !== 'ACTIVE') {
    throw new ConflictError(`The job listing is ${listing.status}: only ACTIVE listings accept applications`, [
      { field: 'jobListingId', message: `job listing status is ${listing.status}` },
    ]);
  }
}

export interface PipelineEntry {
  candidateId: string;
  coverLetter?: string | null | undefined;
}

export interface PipelineInput {
  companyId: string;
  jobListingId: string;
  source: string;
  apiKeyId: string | null;
  /** The signed-in person entering them (a user's token); undefined for an API key or the system. */
  userId?: string | undefined;
  now: Date;
}

/**
 * Adds each candidate to the listing's pipeline at the initial stage, unless already in it.
 * Each new application gets its first history row and one application.created event. Answers,
 * per candidate, the application and whether it was created now. The caller has checked the
 * listing (assertListingAcceptsApplications) in the same transaction.
 */
export async function enterPipeline(
  tx: ServiceContext,
  input: PipelineInput,
  entries: PipelineEntry[],
): Promise<Map<string, { application: ApplicationRow; created: boolean }>> {
  const rows: ApplicationRow[] = entries.map((entry) => ({
    id: randomUUID(),
    companyId: input.companyId,
    jobListingId: input.jobListingId,
    candidateId: entry.candidateId,
    status: INITIAL_STAGE,
    source: input.source,
    coverLetter: entry.coverLetter ?? null,
    appliedAt: input.now,
    updatedAt: input.now,
    furthestStage: funnelRank(INITIAL_STAGE),
    rejectionReasonId: null,
  }));
  // Inserted in candidate id order, the same in every transaction, so overlapping imports into one
  // listing take their locks on (listing, candidate) in one sequence and cannot deadlock.
  const inserted = await insertApplicationsIfAbsent(
    tx.db,
    [...rows].sort((a, b) => (a.candidateId < b.candidateId ? -1 : a.candidateId > b.candidateId ? 1 : 0)),
  );
  const result = new Map(inserted.map((application) => [application.candidateId, { application, created: true }]));

  const already = entries.map((entry) => entry.candidateId).filter((id) => !result.has(id));
  for (const application of await findApplicationsOfListing(tx.db, input.companyId, input.jobListingId, already)) {
    result.set(application.candidateId, { application, created: false });
  }

  await insertStatusHistory(
    tx.db,
    inserted.map((application) => ({
      id: randomUUID(),
      companyId: input.companyId,
      applicationId: application.id,
      fromStatus: null,
      toStatus: INITIAL_STAGE,
      reason: null,
      rejectionReasonId: null,
      apiKeyId: input.apiKeyId,
      changedByUserId: input.userId ?? null,
      changedAt: input.now,
    })),
  );
  const candidates = await candidateSummaries(tx, input.companyId, inserted.map((application) => application.candidateId));
  for (const application of inserted) {
    await recordEvent(tx.db, {
      companyId: input.companyId,
      type: 'application.created',
      data: { application: withCandidate(application, candidates) },
      occurredAt: input.now,
    });
  }
  return result;
}

/** The import's form: answers candidateId -> { id, created }. */
export async function addCandidatesToPipeline(
  tx: ServiceContext,
  input: PipelineInput & { candidateIds: string[] },
): Promise<Map<string, { id: string; created: boolean }>> {
  const entered = await enterPipeline(tx, input, input.candidateIds.map((candidateId) => ({ candidateId })));
  return new Map([...entered].map(([candidateId, { application, created }]) => [candidateId, { id: application.id, created }]));
}
