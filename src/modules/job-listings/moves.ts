// Lifecycle moves (lifecycle.ts is the state machine): publish, approve, reject, close, archive,
// and the scheduled sweep that closes expired listings. A move changes the status and its
// timestamps, never the texts, so it has no machine translation to do.
import { withTransaction, type ServiceContext } from '../../shared/context.ts';
import { ValidationError } from '../../shared/errors.ts';
import { recordAudit, type AuditActor } from '../audit/service.ts';
import type { JobListingStatus } from '../reference-data/enums.ts';
import type { JobListingEvent } from './events.ts';
import { computeExpiresAt, transition, type ListingAction } from './lifecycle.ts';
import { presentJobListing, type LanguageOptions, type PresentedJobListing } from './presenter.ts';
import { loadChildren, lockExpiredActiveListings, updateJobListingRow } from './repo.ts';
import type { JobListingRow } from './view.ts';
import { emit, lockForAction, reload } from './writes.ts';

/** The caller's language, and who the audit log names for a publication (none: the service itself). */
export type MoveOptions = LanguageOptions & { actor?: AuditActor | undefined };

/** A listing becoming ACTIVE is recorded in the audit log, in the move's transaction. */
async function auditPublished(ctx: ServiceContext, listing: JobListingRow, previous: JobListingStatus, actor: AuditActor | undefined, now: Date): Promise<void> {
  await withTransaction(ctx, (tx) =>
    recordAudit(tx, { companyId: listing.companyId, actor, action: 'job_listing.published', target: { id: listing.id, label: listing.position }, detail: { from: previous }, occurredAt: now }),
  );
}

function assertEndDateAhead(listing: JobListingRow, now: Date): void {
  const expiresAt = computeExpiresAt(listing.jobListingEndDate, now);
  if (expiresAt && expiresAt <= now) {
    throw ValidationError.field('jobListingEndDate', 'is in the past: move it (PATCH) before publishing');
  }
}

/** The fields that change when a listing becomes ACTIVE (publish, approval, reopening). */
function activation(listing: JobListingRow, now: Date): Partial<JobListingRow> {
  return {
    status: 'ACTIVE',
    publishedAt: listing.publishedAt ?? now,
    activatedAt: now,
    expiresAt: computeExpiresAt(listing.jobListingEndDate, now),
    closedAt: null,
    rejectionReason: null,
  };
}

/**
 * DRAFT -> ACTIVE (or UNDER_REVIEW when the company requires review), CLOSED -> ACTIVE (reopen).
 * Publishing an ACTIVE listing changes nothing and answers the listing.
 */
export async function publishJobListing(
  ctx: ServiceContext,
  companyId: string,
  id: string,
  options: MoveOptions = {},
): Promise<PresentedJobListing> {
  await withTransaction(ctx, async (tx) => {
    const { aggregate, next, changed } = await lockForAction(tx, companyId, id, 'publish');
    if (!changed) return;
    const now = ctx.clock.now();
    assertEndDateAhead(aggregate.listing, now);
    const patch: Partial<JobListingRow> =
      next === 'ACTIVE'
        ? activation(aggregate.listing, now)
        : { status: 'UNDER_REVIEW', closedAt: null, rejectionReason: null };
    const listing = await updateJobListingRow(tx.db, id, { ...patch, updatedAt: now });
    // Waiting for review is not published yet: it is an update until a reviewer approves.
    await emit(tx, next === 'ACTIVE' ? 'job_listing.published' : 'job_listing.updated', { ...aggregate, listing }, now);
    if (next === 'ACTIVE') await auditPublished(tx, listing, aggregate.listing.status as JobListingStatus, options.actor, now);
  });
  return presentJobListing(ctx, await reload(ctx, companyId, id), options);
}

/**
 * The simple moves (approve, reject, close, archive): lock, check the move, write the new status,
 * record its event in the same transaction, then answer the listing as stored.
 */
async function moveJobListing(
  ctx: ServiceContext,
  companyId: string,
  id: string,
  action: ListingAction,
  move: { event: JobListingEvent; patch(listing: JobListingRow, now: Date): Partial<JobListingRow> },
  options: MoveOptions,
): Promise<PresentedJobListing> {
  await withTransaction(ctx, async (tx) => {
    const { aggregate } = await lockForAction(tx, companyId, id, action);
    const now = ctx.clock.now();
    const listing = await updateJobListingRow(tx.db, id, { ...move.patch(aggregate.listing, now), updatedAt: now });
    await emit(tx, move.event, { ...aggregate, listing }, now);
    if (move.event === 'job_listing.published') await auditPublished(tx, listing, aggregate.listing.status as JobListingStatus, options.actor, now);
  });
  return presentJobListing(ctx, await reload(ctx, companyId, id), options);
}

type Move = Parameters<typeof moveJobListing>[4];

/** UNDER_REVIEW -> ACTIVE: a company admin approves (the dashboard exposes it). */
const APPROVE: Move = {
  event: 'job_listing.published',
  patch(listing, now) {
    assertEndDateAhead(listing, now);
    return activation(listing, now);
  },
};
/** ACTIVE or UNDER_REVIEW -> CLOSED. */
const CLOSE: Move = { event: 'job_listing.closed', patch: (_listing, now) => ({ status: 'CLOSED', closedAt: now }) };
/** Any status but ARCHIVED -> ARCHIVED; the listing is read-only afterwards. */
const ARCHIVE: Move = { event: 'job_listing.archived', patch: () => ({ status: 'ARCHIVED' }) };

type MoveCommand = (ctx: ServiceContext, companyId: string, id: string, options?: MoveOptions) => Promise<PresentedJobListing>;

export const approveJobListing: MoveCommand = (ctx, companyId, id, options = {}) => moveJobListing(ctx, companyId, id, 'approve', APPROVE, options);
export const closeJobListing: MoveCommand = (ctx, companyId, id, options = {}) => moveJobListing(ctx, companyId, id, 'close', CLOSE, options);
export const archiveJobListing: MoveCommand = (ctx, companyId, id, options = {}) => moveJobListing(ctx, companyId, id, 'archive', ARCHIVE, options);

/** UNDER_REVIEW -> DRAFT with the reviewer's reason, shown on the listing until the next publish. */
export async function rejectJobListing(
  ctx: ServiceContext,
  companyId: string,
  id: string,
  reason: string,
  options: LanguageOptions = {},
): Promise<PresentedJobListing> {
  const trimmed = typeof reason === 'string' ? reason.trim() : '';
  if (trimmed.length < 1 || trimmed.length > 2000) throw ValidationError.field('reason', 'must be 1 to 2000 characters');
  return moveJobListing(ctx, companyId, id, 'reject', { event: 'job_listing.updated', patch: () => ({ status: 'DRAFT', rejectionReason: trimmed }) }, options);
}

// --- expiry -------------------------------------------------------------------------------------

const EXPIRY_BATCH = 100;

/**
 * Closes every ACTIVE listing whose expiresAt has passed (all companies), each with its
 * job_listing.closed event, in batches of 100 per transaction. Returns how many were closed.
 * Safe to run from several workers at once (rows are claimed with SKIP LOCKED).
 */
export async function closeExpiredJobListings(ctx: ServiceContext): Promise<number> {
  let closed = 0;
  for (;;) {
    const count = await withTransaction(ctx, async (tx) => {
      const now = ctx.clock.now();
      const rows = await lockExpiredActiveListings(tx.db, now, EXPIRY_BATCH);
      if (rows.length === 0) return 0;
      const children = await loadChildren(
        tx.db,
        rows.map((row) => row.id),
      );
      for (const row of rows) {
        const result = transition(row.status as JobListingStatus, 'expire', { requiresReview: false, everPublished: true });
        if (!result.allowed) continue;
        const listing = await updateJobListingRow(tx.db, row.id, { status: 'CLOSED', closedAt: now, updatedAt: now });
        await emit(tx, 'job_listing.closed', { listing, ...children.get(row.id)! }, now);
      }
      return rows.length;
    });
    closed += count;
    if (count < EXPIRY_BATCH) return closed;
  }
}
