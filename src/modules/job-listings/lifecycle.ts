// The job listing lifecycle as a pure state machine (decisions.md, "Job listings"):
//
//   DRAFT --publish--> ACTIVE                (UNDER_REVIEW instead when the company requires review)
//   UNDER_REVIEW --approve--> ACTIVE,  --reject--> DRAFT (with a reason)
//   ACTIVE --publish--> ACTIVE               (200, nothing changes)
//   ACTIVE | UNDER_REVIEW --close--> CLOSED  (ACTIVE also closes by itself past expiresAt: expire)
//   CLOSED --publish--> ACTIVE               (reopens; UNDER_REVIEW if review is required and the
//                                             listing was never approved, so closing a listing
//                                             under review cannot be a way around the review)
//   any but ARCHIVED --archive--> ARCHIVED   (read-only from then on)
//   DRAFT --delete--> (gone)
//   any but ARCHIVED --update--> same state  (PATCH, translations)
//
// Every other (state, action) pair is refused; the service answers 409 naming the current status.
import type { JobListingStatus } from '../reference-data/enums.ts';

export const LISTING_ACTIONS = ['publish', 'approve', 'reject', 'close', 'expire', 'archive', 'delete', 'update'] as const;
export type ListingAction = (typeof LISTING_ACTIONS)[number];

export interface LifecycleContext {
  /** The company's setting: publishing goes through review first. */
  requiresReview: boolean;
  /** Whether the listing has ever been ACTIVE (publishedAt is set). */
  everPublished: boolean;
}

export type Transition =
  | { allowed: true; next: JobListingStatus | 'DELETED'; changed: boolean }
  | { allowed: false; reason: string };

const refuse = (status: JobListingStatus, action: ListingAction): Transition => ({
  allowed: false,
  reason: `Cannot ${action} a job listing in status ${status}`,
});

const move = (from: JobListingStatus, next: JobListingStatus | 'DELETED'): Transition => ({
  allowed: true,
  next,
  changed: next !== from,
});

export function transition(status: JobListingStatus, action: ListingAction, context: LifecycleContext): Transition {
  if (status === 'ARCHIVED') return refuse(status, action);
  switch (action) {
    case 'publish':
      if (status === 'DRAFT') return move(status, context.requiresReview ? 'UNDER_REVIEW' : 'ACTIVE');
      if (status === 'ACTIVE') return move(status, 'ACTIVE');
      if (status === 'CLOSED') {
        return move(status, context.requiresReview && !context.everPublished ? 'UNDER_REVIEW' : 'ACTIVE');
      }
      return refuse(status, action);
    case 'approve':
      return status === 'UNDER_REVIEW' ? move(status, 'ACTIVE') : refuse(status, action);
    case 'reject':
      return status === 'UNDER_REVIEW' ? move(status, 'DRAFT') : refuse(status, action);
    case 'close':
      return status === 'ACTIVE' || status === 'UNDER_REVIEW' ? move(status, 'CLOSED') : refuse(status, action);
    case 'expire':
      return status === 'ACTIVE' ? move(status, 'CLOSED') : refuse(status, action);
    case 'archive':
      return move(status, 'ARCHIVED');
    case 'delete':
      return status === 'DRAFT' ? move(status, 'DELETED') : refuse(status, action);
    case 'update':
      return move(status, status);
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long a listing without an end date stays ACTIVE. */
export const DEFAULT_LISTING_LIFETIME_DAYS = 60;

/**
 * When an ACTIVE listing closes by itself: the end of its jobListingEndDate (UTC) when set, else
 * 60 days after it last became ACTIVE; null when neither is known (a draft without end date).
 */
export function computeExpiresAt(jobListingEndDate: string | null, activatedAt: Date | null): Date | null {
  if (jobListingEndDate) return new Date(`${jobListingEndDate}T23:59:59.999Z`);
  if (activatedAt) return new Date(activatedAt.getTime() + DEFAULT_LISTING_LIFETIME_DAYS * DAY_MS);
  return null;
}
