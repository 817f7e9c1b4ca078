// Job listing rules: validation beyond the schema, the lifecycle, timestamps, events. Every change
// happens in one transaction with its job_listing.* event (the outbox), on a row locked FOR UPDATE
// so two concurrent moves of one listing serialize.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { CHANGED_SINCE, endPage, NEWEST_FIRST, startPage, toPage, type Page, type PageRequest } from '../../shared/pagination.ts';
import { ConflictError, NotFoundError, ValidationError, type ErrorDetail } from '../../shared/errors.ts';
import type { ServiceContext } from '../../shared/context.ts';
import { getCompany } from '../companies/service.ts';
import { recordEvent } from '../../infra/outbox/record-event.ts';
import type { JobListingStatus } from '../reference-data/enums.ts';
import { knownSectorIds, knownTagIds } from '../reference-data/service.ts';
import { normalizeCurrency } from './currencies.ts';
import type { JobListingEvent } from './events.ts';
import { normalizeLanguageTag } from '../../shared/language-tags.ts';
import { computeExpiresAt, transition, type ListingAction } from './lifecycle.ts';
import {
  deleteJobListingRow,
  findJobListingAggregate,
  findJobListingStatus,
  insertJobListing,
  listJobListingRows,
  lockExpiredActiveListings,
  loadChildren,
  pruneTranslations,
  replaceChildren,
  updateJobListingRow,
  type ListingChildren,
} from './repo.ts';
import type { CreateJobListingInput, JobListingListItemView, JobListingView, UpdateJobListingInput } from './schemas.ts';
import { presentJobListing, presentJobListingItems } from './translation-service.ts';
import { sourceTexts, toJobListingView, type JobListingAggregate, type JobListingRow } from './view.ts';

export type { JobListingView } from './schemas.ts';

/** A listing as answered to a caller, and the language of its texts (for Content-Language). */
export interface PresentedJobListing {
  listing: JobListingView;
  language: string;
}

export interface LanguageOptions {
  /** The caller's Accept-Language header. */
  acceptLanguage?: string | undefined;
}

// --- reading ------------------------------------------------------------------------------------

/** The company's listing in the language the caller asked for. Another company's id: 404. */
export async function getJobListing(
  ctx: ServiceContext,
  companyId: string,
  id: string,
  acceptLanguage?: string | undefined,
): Promise<PresentedJobListing> {
  const aggregate = await findJobListingAggregate(ctx.db, companyId, id);
  if (!aggregate) throw new NotFoundError('Job listing');
  return presentJobListing(ctx, aggregate, { acceptLanguage });
}

export interface ListJobListingsInput extends PageRequest {
  status?: JobListingStatus[] | undefined;
  updatedSince?: string | undefined;
}

export async function listJobListings(
  ctx: ServiceContext,
  companyId: string,
  input: ListJobListingsInput,
  options: LanguageOptions = {},
): Promise<{ page: Page<JobListingListItemView>; language: string }> {
  const filter = {
    companyId,
    statuses: input.status && input.status.length > 0 ? [...new Set(input.status)].sort() : undefined,
    updatedSince: input.updatedSince ? new Date(input.updatedSince) : undefined,
  };
  const position = startPage(input, 'job-listings', filter.updatedSince ? CHANGED_SINCE : NEWEST_FIRST, filter);
  const { rows: fetched, total } = await listJobListingRows(ctx.db, filter, position);
  const { rows, ...cursors } = endPage(fetched, position, (row) =>
    position.ordering.sync ? [row.updatedAt, row.id] : [row.createdAt, row.id],
  );
  const { items, language } = await presentJobListingItems(ctx, companyId, rows, options);
  return { page: toPage(items, total, position, cursors), language };
}

/**
 * The listing's status, share-locked until the caller's transaction ends (so it cannot be closed
 * while an application to it is being written). Undefined for a missing or another company's id.
 */
export async function lockJobListingStatus(tx: Db, companyId: string, id: string): Promise<{ id: string; status: string } | undefined> {
  return findJobListingStatus(tx, companyId, id);
}

// --- validation ---------------------------------------------------------------------------------

type WritableInput = Omit<UpdateJobListingInput, never>;

/** Checks what the schema cannot (references, currency, salary range) and returns the row fields. */
async function validateFields(
  db: Db,
  input: WritableInput,
  current: JobListingRow | undefined,
  details: ErrorDetail[],
): Promise<Partial<JobListingRow>> {
  const fields: Partial<JobListingRow> = {};
  const copy = <K extends keyof WritableInput & keyof JobListingRow>(key: K) => {
    if (input[key] !== undefined) (fields as Record<string, unknown>)[key] = input[key];
  };
  for (const key of [
    'position',
    'positionType',
    'workPlaceType',
    'sectorId',
    'isStartDate',
    'startDate',
    'jobDescription',
    'requirementsSummary',
    'personalQualitiesSummary',
    'salaryBase',
    'isSalaryMax',
    'salaryMax',
    'salaryType',
    'paymentInterval',
    'salaryDescription',
    'educationLevel',
    'fieldOfStudy',
    'yearsOfExperience',
    'availableForEveryCountry',
    'numberOfPositionsOpened',
    'jobListingEndDate',
    'referenceNumber',
  ] as const) {
    copy(key);
  }

  if (typeof input.position === 'string' && input.position.trim() === '') {
    details.push({ field: 'position', message: 'must not be blank' });
  }

  if (input.sectorId) {
    const found = await knownSectorIds(db, [input.sectorId]);
    if (!found.has(input.sectorId)) details.push({ field: 'sectorId', message: 'is not a known sector id (see GET /public/v1/sectors)' });
  }

  if (input.jobListingTags) {
    const ids = input.jobListingTags.map((link) => link.tagId);
    const found = await knownTagIds(db, ids);
    const seen = new Set<string>();
    ids.forEach((tagId, index) => {
      const field = `jobListingTags[${index}].tagId`;
      if (!found.has(tagId)) details.push({ field, message: 'is not a known tag id (see GET /public/v1/tags)' });
      else if (seen.has(tagId)) details.push({ field, message: 'is listed twice' });
      seen.add(tagId);
    });
  }

  if (input.hiringProcessSteps) {
    const orders = new Set<number>();
    input.hiringProcessSteps.forEach((step, index) => {
      const order = step.stepOrder ?? index + 1;
      if (orders.has(order)) details.push({ field: `hiringProcessSteps[${index}].stepOrder`, message: `${order} is used twice` });
      orders.add(order);
    });
  }

  if (input.currency !== undefined) {
    if (input.currency === null) fields.currency = null;
    else {
      const code = normalizeCurrency(input.currency);
      if (code) fields.currency = code;
      else details.push({ field: 'currency', message: 'must be an ISO 4217 currency code, e.g. EUR' });
    }
  }

  if (input.address !== undefined) {
    const address = input.address;
    // Merge: an address object changes the parts it names; null removes the whole address.
    const part = <T>(value: T | null | undefined, existing: T | null | undefined): T | null =>
      address === null ? null : value !== undefined ? value : (existing ?? null);
    fields.addressStreet = part(address?.street, current?.addressStreet);
    fields.addressCity = part(address?.city, current?.addressCity);
    fields.addressState = part(address?.state, current?.addressState);
    fields.addressCountry = part(address?.country, current?.addressCountry);
    fields.addressPostalCode = part(address?.postalCode, current?.addressPostalCode);
    fields.addressLatitude = part(address?.latitude, current?.addressLatitude);
    fields.addressLongitude = part(address?.longitude, current?.addressLongitude);
  }

  const salaryBase = fields.salaryBase !== undefined ? fields.salaryBase : (current?.salaryBase ?? null);
  const salaryMax = fields.salaryMax !== undefined ? fields.salaryMax : (current?.salaryMax ?? null);
  if (salaryBase !== null && salaryMax !== null && salaryMax < salaryBase) {
    details.push({ field: 'salaryMax', message: 'must be greater than or equal to salaryBase' });
  }
  return fields;
}

function childrenFromInput(listingId: string, input: WritableInput): Partial<ListingChildren> {
  const children: Partial<ListingChildren> = {};
  if (input.skills) {
    children.skills = input.skills.map((skill, index) => ({
      id: randomUUID(),
      jobListingId: listingId,
      sortOrder: index,
      value: skill.value,
      type: skill.type ?? null,
      expertType: skill.expertType ?? null,
      languageProficiency: skill.languageProficiency ?? null,
      drivingClass: skill.drivingClass ?? null,
    }));
  }
  if (input.benefits) {
    children.benefits = input.benefits.map((value, index) => ({ id: randomUUID(), jobListingId: listingId, sortOrder: index, value }));
  }
  if (input.hiringProcessSteps) {
    children.hiringSteps = input.hiringProcessSteps.map((step, index) => ({
      id: randomUUID(),
      jobListingId: listingId,
      stepOrder: step.stepOrder ?? index + 1,
      stepName: step.stepName,
      description: step.description ?? null,
    }));
  }
  if (input.jobListingTags) {
    children.tags = input.jobListingTags.map((link) => ({ id: randomUUID(), jobListingId: listingId, tagId: link.tagId }));
  }
  if (input.jobListingRequirements) {
    children.requirements = input.jobListingRequirements.map((requirement, index) => ({
      id: randomUUID(),
      jobListingId: listingId,
      sortOrder: index,
      requirementText: requirement.requirementText,
    }));
  }
  return children;
}

// --- events -------------------------------------------------------------------------------------

/** The event's data is the listing itself, texts as written (events do not depend on a language). */
async function emit(tx: Db, type: JobListingEvent, aggregate: JobListingAggregate, occurredAt: Date): Promise<void> {
  await recordEvent(tx, { companyId: aggregate.listing.companyId, type, data: toJobListingView(aggregate), occurredAt });
}

// --- create, update, delete ---------------------------------------------------------------------

export async function createJobListing(
  ctx: ServiceContext,
  companyId: string,
  input: CreateJobListingInput,
  options: LanguageOptions = {},
): Promise<PresentedJobListing> {
  const details: ErrorDetail[] = [];
  let language: string | undefined;
  if (input.language !== undefined) {
    language = normalizeLanguageTag(input.language);
    if (!language) details.push({ field: 'language', message: 'must be a BCP 47 language tag such as en or pt-BR' });
  }
  const fields = await validateFields(ctx.db, input, undefined, details);
  if (details.length) throw new ValidationError(details);
  language ??= (await getCompany(ctx, companyId)).defaultLanguage;

  const now = ctx.clock.now();
  const id = randomUUID();
  const listing: JobListingRow = {
    id,
    companyId,
    status: 'DRAFT',
    language,
    sectorId: null,
    position: input.position,
    positionType: input.positionType,
    workPlaceType: input.workPlaceType,
    addressStreet: null,
    addressCity: null,
    addressState: null,
    addressCountry: null,
    addressPostalCode: null,
    addressLatitude: null,
    addressLongitude: null,
    isStartDate: null,
    startDate: null,
    jobDescription: null,
    requirementsSummary: null,
    personalQualitiesSummary: null,
    currency: null,
    salaryBase: null,
    isSalaryMax: null,
    salaryMax: null,
    salaryType: null,
    paymentInterval: null,
    salaryDescription: null,
    educationLevel: null,
    fieldOfStudy: null,
    yearsOfExperience: null,
    availableForEveryCountry: null,
    numberOfPositionsOpened: null,
    jobListingEndDate: null,
    referenceNumber: null,
    rejectionReason: null,
    createdAt: now,
    updatedAt: now,
    publishedAt: null,
    activatedAt: null,
    expiresAt: null,
    closedAt: null,
    ...fields,
  };
  listing.expiresAt = computeExpiresAt(listing.jobListingEndDate, null);
  const children = childrenFromInput(id, input);
  const aggregate: JobListingAggregate = {
    listing,
    skills: children.skills ?? [],
    benefits: children.benefits ?? [],
    hiringSteps: children.hiringSteps ?? [],
    tags: children.tags ?? [],
    requirements: children.requirements ?? [],
  };
  await ctx.db.transaction(async (tx) => {
    await insertJobListing(tx, aggregate);
    // The event shows the listing exactly as stored (and as a later GET answers it).
    await emit(tx, 'job_listing.created', await reload(tx, companyId, id), now);
  });
  return presentJobListing(ctx, await reload(ctx.db, companyId, id), options);
}

async function reload(db: Db, companyId: string, id: string): Promise<JobListingAggregate> {
  const aggregate = await findJobListingAggregate(db, companyId, id);
  if (!aggregate) throw new NotFoundError('Job listing');
  return aggregate;
}

/** Locks the listing and checks that `action` is allowed in its status (404 / 409 otherwise). */
async function lockForAction(
  ctx: ServiceContext,
  tx: Db,
  companyId: string,
  id: string,
  action: ListingAction,
): Promise<{ aggregate: JobListingAggregate; next: JobListingStatus | 'DELETED'; changed: boolean }> {
  const aggregate = await findJobListingAggregate(tx, companyId, id, { lock: 'update' });
  if (!aggregate) throw new NotFoundError('Job listing');
  const status = aggregate.listing.status as JobListingStatus;
  const requiresReview = action === 'publish' ? (await getCompany({ ...ctx, db: tx }, companyId)).requiresListingReview : false;
  const result = transition(status, action, { requiresReview, everPublished: aggregate.listing.publishedAt !== null });
  if (!result.allowed) {
    const hint =
      action === 'delete' ? ' (only a DRAFT can be deleted; archive it instead)' : status === 'ARCHIVED' ? ' (archived listings are read-only)' : '';
    throw new ConflictError(`${result.reason}${hint}`, [{ field: 'status', message: `is ${status}` }]);
  }
  return { aggregate, next: result.next, changed: result.changed };
}

export async function updateJobListing(
  ctx: ServiceContext,
  companyId: string,
  id: string,
  input: UpdateJobListingInput,
  options: LanguageOptions = {},
): Promise<PresentedJobListing> {
  await ctx.db.transaction(async (tx) => {
    const { aggregate } = await lockForAction(ctx, tx, companyId, id, 'update');
    const details: ErrorDetail[] = [];
    const fields = await validateFields(tx, input, aggregate.listing, details);
    if (details.length) throw new ValidationError(details);
    const now = ctx.clock.now();
    const endDate = fields.jobListingEndDate !== undefined ? fields.jobListingEndDate : aggregate.listing.jobListingEndDate;
    const listing = await updateJobListingRow(tx, id, {
      ...fields,
      expiresAt: computeExpiresAt(endDate, aggregate.listing.activatedAt),
      updatedAt: now,
    });
    await replaceChildren(tx, id, childrenFromInput(id, input));
    const updated = await reload(tx, companyId, listing.id);
    // Translations of texts that no longer exist can never apply again.
    await pruneTranslations(tx, id, sourceTexts(updated));
    await emit(tx, 'job_listing.updated', updated, now);
  });
  return presentJobListing(ctx, await reload(ctx.db, companyId, id), options);
}

export async function deleteJobListing(ctx: ServiceContext, companyId: string, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const { aggregate } = await lockForAction(ctx, tx, companyId, id, 'delete');
    await deleteJobListingRow(tx, id);
    await emit(tx, 'job_listing.deleted', aggregate, ctx.clock.now());
  });
}

// --- lifecycle moves ----------------------------------------------------------------------------

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
  options: LanguageOptions = {},
): Promise<PresentedJobListing> {
  await ctx.db.transaction(async (tx) => {
    const { aggregate, next, changed } = await lockForAction(ctx, tx, companyId, id, 'publish');
    if (!changed) return;
    const now = ctx.clock.now();
    assertEndDateAhead(aggregate.listing, now);
    const patch: Partial<JobListingRow> =
      next === 'ACTIVE'
        ? activation(aggregate.listing, now)
        : { status: 'UNDER_REVIEW', closedAt: null, rejectionReason: null };
    const listing = await updateJobListingRow(tx, id, { ...patch, updatedAt: now });
    // Waiting for review is not published yet: it is an update until a reviewer approves.
    await emit(tx, next === 'ACTIVE' ? 'job_listing.published' : 'job_listing.updated', { ...aggregate, listing }, now);
  });
  return presentJobListing(ctx, await reload(ctx.db, companyId, id), options);
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
  options: LanguageOptions,
): Promise<PresentedJobListing> {
  await ctx.db.transaction(async (tx) => {
    const { aggregate } = await lockForAction(ctx, tx, companyId, id, action);
    const now = ctx.clock.now();
    const listing = await updateJobListingRow(tx, id, { ...move.patch(aggregate.listing, now), updatedAt: now });
    await emit(tx, move.event, { ...aggregate, listing }, now);
  });
  return presentJobListing(ctx, await reload(ctx.db, companyId, id), options);
}

/** UNDER_REVIEW -> ACTIVE: a company admin approves (the dashboard exposes it). */
export async function approveJobListing(
  ctx: ServiceContext,
  companyId: string,
  id: string,
  options: LanguageOptions = {},
): Promise<PresentedJobListing> {
  return moveJobListing(ctx, companyId, id, 'approve', {
    event: 'job_listing.published',
    patch(listing, now) {
      assertEndDateAhead(listing, now);
      return activation(listing, now);
    },
  }, options);
}

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
  return moveJobListing(ctx, companyId, id, 'reject', {
    event: 'job_listing.updated',
    patch: () => ({ status: 'DRAFT', rejectionReason: trimmed }),
  }, options);
}

/** ACTIVE or UNDER_REVIEW -> CLOSED. */
export async function closeJobListing(
  ctx: ServiceContext,
  companyId: string,
  id: string,
  options: LanguageOptions = {},
): Promise<PresentedJobListing> {
  return moveJobListing(ctx, companyId, id, 'close', {
    event: 'job_listing.closed',
    patch: (_listing, now) => ({ status: 'CLOSED', closedAt: now }),
  }, options);
}

/** Any status but ARCHIVED -> ARCHIVED; the listing is read-only afterwards. */
export async function archiveJobListing(
  ctx: ServiceContext,
  companyId: string,
  id: string,
  options: LanguageOptions = {},
): Promise<PresentedJobListing> {
  return moveJobListing(ctx, companyId, id, 'archive', {
    event: 'job_listing.archived',
    patch: () => ({ status: 'ARCHIVED' }),
  }, options);
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
    const count = await ctx.db.transaction(async (tx) => {
      const now = ctx.clock.now();
      const rows = await lockExpiredActiveListings(tx, now, EXPIRY_BATCH);
      if (rows.length === 0) return 0;
      const children = await loadChildren(
        tx,
        rows.map((row) => row.id),
      );
      for (const row of rows) {
        const result = transition(row.status as JobListingStatus, 'expire', { requiresReview: false, everPublished: true });
        if (!result.allowed) continue;
        const listing = await updateJobListingRow(tx, row.id, { status: 'CLOSED', closedAt: now, updatedAt: now });
        await emit(tx, 'job_listing.closed', { listing, ...children.get(row.id)! }, now);
      }
      return rows.length;
    });
    closed += count;
    if (count < EXPIRY_BATCH) return closed;
  }
}
