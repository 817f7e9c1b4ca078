// The steps every job listing write shares: lock the listing and check the move (404 / 409), record
// its job_listing.* event in the same transaction (the outbox), reload it as stored. Every change
// happens on a row locked FOR UPDATE so two concurrent writes of one listing serialize.
import { ConflictError, NotFoundError } from '../../shared/errors.ts';
import { withTransaction, type ServiceContext } from '../../shared/context.ts';
import { recordEvent } from '../../infra/outbox/record-event.ts';
import { getCompany } from '../companies/service.ts';
import type { JobListingStatus } from '../reference-data/enums.ts';
import type { JobListingEvent } from './events.ts';
import { transition, type ListingAction } from './lifecycle.ts';
import { findJobListingAggregate } from './repo.ts';
import { toJobListingView, type JobListingAggregate } from './view.ts';

/**
 * Records the event in the caller's transaction (joined through its context), so it commits or
 * rolls back with the change. The event's data is the listing itself, texts as written (events do
 * not depend on a language).
 */
export async function emit(ctx: ServiceContext, type: JobListingEvent, aggregate: JobListingAggregate, occurredAt: Date): Promise<void> {
  await withTransaction(ctx, (tx) =>
    recordEvent(tx.db, { companyId: aggregate.listing.companyId, type, data: toJobListingView(aggregate), occurredAt }),
  );
}

export async function reload(ctx: ServiceContext, companyId: string, id: string): Promise<JobListingAggregate> {
  const aggregate = await findJobListingAggregate(ctx.db, companyId, id);
  if (!aggregate) throw new NotFoundError('Job listing');
  return aggregate;
}

/**
 * Locks the listing for the rest of `ctx`'s transaction and checks that `action` is allowed in its
 * status (404 / 409 otherwise).
 */
export async function lockForAction(
  ctx: ServiceContext,
  companyId: string,
  id: string,
  action: ListingAction,
): Promise<{ aggregate: JobListingAggregate; next: JobListingStatus | 'DELETED'; changed: boolean }> {
  const aggregate = await findJobListingAggregate(ctx.db, companyId, id, { lock: 'update' });
  if (!aggregate) throw new NotFoundError('Job listing');
  const status = aggregate.listing.status as JobListingStatus;
  const requiresReview = action === 'publish' ? (await getCompany(ctx, companyId)).requiresListingReview : false;
  const result = transition(status, action, { requiresReview, everPublished: aggregate.listing.publishedAt !== null });
  if (!result.allowed) {
    const hint =
      action === 'delete' ? ' (only a DRAFT can be deleted; archive it instead)' : status === 'ARCHIVED' ? ' (archived listings are read-only)' : '';
    throw new ConflictError(`${result.reason}${hint}`, [{ field: 'status', message: `is ${status}` }]);
  }
  return { aggregate, next: result.next, changed: result.changed };
}
