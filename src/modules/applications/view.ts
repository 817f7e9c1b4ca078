// Application rows to the shapes the API answers and the events carry.
import type { CandidateSummaryView } from '../candidates/service.ts';
import type { RejectionReasonRef } from '../companies/service.ts';
import type { ApplicationRow, StatusHistoryRow } from './repo.ts';
import type { ApplicationSource, ApplicationStage } from './stages.ts';

export interface ApplicationSummaryView {
  id: string;
  jobListingId: string;
  jobSeekerId: string;
  status: ApplicationStage;
  source: ApplicationSource;
  coverLetter: string | null;
  appliedAt: string;
  updatedAt: string;
  rejectionReasonId: string | null;
  candidate: CandidateSummaryView;
}

export function toApplicationSummaryView(row: ApplicationRow, candidate: CandidateSummaryView): ApplicationSummaryView {
  return {
    id: row.id,
    jobListingId: row.jobListingId,
    jobSeekerId: row.candidateId,
    status: row.status as ApplicationStage,
    source: row.source as ApplicationSource,
    coverLetter: row.coverLetter,
    appliedAt: row.appliedAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    rejectionReasonId: row.rejectionReasonId,
    candidate: {
      id: candidate.id,
      firstName: candidate.firstName,
      lastName: candidate.lastName,
      headline: candidate.headline,
      email: candidate.email,
      phone: candidate.phone,
    },
  };
}

/** The summary with its candidate taken from a map by id (every application has its candidate). */
export function withCandidate(row: ApplicationRow, candidates: Map<string, CandidateSummaryView>): ApplicationSummaryView {
  const candidate = candidates.get(row.candidateId);
  if (!candidate) throw new Error(`application ${row.id} has no candidate ${row.candidateId}`);
  return toApplicationSummaryView(row, candidate);
}

export interface StatusChangeView {
  id: string;
  applicationId: string;
  fromStatus: ApplicationStage | null;
  toStatus: ApplicationStage;
  reason: string | null;
  rejectionReason: RejectionReasonRef | null;
  changedByApiKeyId: string | null;
  changedAt: string;
}

/** A history row as answered; `reasons`: the company's rejection reasons by id (for their names). */
export function toStatusChangeView(row: StatusHistoryRow, reasons: ReadonlyMap<string, RejectionReasonRef>): StatusChangeView {
  return {
    id: row.id,
    applicationId: row.applicationId,
    fromStatus: row.fromStatus as ApplicationStage | null,
    toStatus: row.toStatus as ApplicationStage,
    reason: row.reason,
    rejectionReason: row.rejectionReasonId === null ? null : (reasons.get(row.rejectionReasonId) ?? null),
    changedByApiKeyId: row.apiKeyId,
    changedAt: row.changedAt.toISOString(),
  };
}
