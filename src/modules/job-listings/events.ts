// The job listing events (pure): their names, and their payload: the listing itself, texts as
// written (events do not depend on a language). Registered in the outbox's EventCatalogue.
import type { JobListingView } from './schemas.ts';

export const JOB_LISTING_EVENTS = [
  'job_listing.created',
  'job_listing.updated',
  'job_listing.published',
  'job_listing.closed',
  'job_listing.archived',
  'job_listing.deleted',
] as const;
export type JobListingEvent = (typeof JOB_LISTING_EVENTS)[number];

const LISTING = { $ref: 'JobListing' };
const ITSELF = 'the job listing itself';

/**
 * When each event is sent, what its `data` is in words, and as JSON Schema ($ref names a component
 * schema): the source of the webhook catalogue in the OpenAPI document and docs/webhooks.md.
 */
export const JOB_LISTING_EVENT_PAYLOADS: Record<JobListingEvent, { sentWhen: string; dataNote: string; data: object }> = {
  'job_listing.created': { sentWhen: 'a job listing is created (as DRAFT)', dataNote: ITSELF, data: LISTING },
  'job_listing.updated': { sentWhen: "a job listing's fields or translations change", dataNote: ITSELF, data: LISTING },
  'job_listing.published': { sentWhen: 'a listing becomes ACTIVE (published, approved or reopened)', dataNote: ITSELF, data: LISTING },
  'job_listing.closed': { sentWhen: 'a listing is closed, by hand or because it expired', dataNote: ITSELF, data: LISTING },
  'job_listing.archived': { sentWhen: 'a listing is archived', dataNote: ITSELF, data: LISTING },
  'job_listing.deleted': { sentWhen: 'a DRAFT listing is deleted', dataNote: 'the job listing (its last state)', data: LISTING },
};

declare module '../../infra/outbox/record-event.ts' {
  interface EventCatalogue extends Record<JobListingEvent, JobListingView> {}
}
