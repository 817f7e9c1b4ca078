// The job listings module's public surface: other modules and the routes use only this file (and
// the module's pure files). Reads are here; the rest lives by job: commands.ts (create, update,
// delete, human translations), moves.ts (lifecycle moves and the expiry sweep), validation.ts,
// presenter.ts (the language choice, read-only) and machine-translation.ts (AI translations, made
// on the write path and by the scheduled sweep).
import { CHANGED_SINCE, endPage, NEWEST_FIRST, startPage, toPage, type Page, type PageRequest } from '../../shared/pagination.ts';
import { NotFoundError, ValidationError } from '../../shared/errors.ts';
import { withTransaction, type ServiceContext } from '../../shared/context.ts';
import type { JobListingStatus, PositionType, WorkPlaceType } from '../reference-data/enums.ts';
import { presentJobListing, presentJobListingItems, type LanguageOptions, type PresentedJobListing } from './presenter.ts';
import { findJobListingAggregate, findJobListingStatus, jobListingExists, listActiveListingRows, listJobListingRows, translationSummary } from './repo.ts';
import type { JobListingListItemView, ListingTranslationsView } from './schemas.ts';

export type { JobListingView } from './schemas.ts';
export type { LanguageOptions, PresentedJobListing } from './presenter.ts';
export { createJobListing, deleteJobListing, deleteJobListingsForGood, jobListingFieldProblems, listingTag, putJobListingTranslation, updateJobListing } from './commands.ts';
export {
  approveJobListing,
  archiveJobListing,
  closeExpiredJobListings,
  closeJobListing,
  publishJobListing,
  rejectJobListing,
} from './moves.ts';
export { translateDueJobListings } from './machine-translation.ts';

/** The company's listing in the language the caller asked for, from what is stored. Another company's id: 404. */
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

/**
 * The languages the company's listing has stored translations in, one entry per language (sorted by
 * tag): HUMAN when any of its texts has a human translation into it, since that is what a read in
 * that language shows first; else AI. Another company's id: 404.
 */
export async function listJobListingTranslations(ctx: ServiceContext, companyId: string, id: string): Promise<ListingTranslationsView> {
  if (!(await jobListingExists(ctx.db, companyId, id))) throw new NotFoundError('Job listing');
  const byLanguage = new Map<string, ListingTranslationsView['data'][number]>();
  for (const row of await translationSummary(ctx.db, id)) {
    const seen = byLanguage.get(row.language);
    const updatedAt = row.updatedAt.toISOString();
    if (!seen) {
      byLanguage.set(row.language, { language: row.language, translationType: row.translationType as 'HUMAN' | 'AI', updatedAt });
      continue;
    }
    if (row.translationType === 'HUMAN') seen.translationType = 'HUMAN';
    if (updatedAt > seen.updatedAt) seen.updatedAt = updatedAt;
  }
  // Sorted here, not in SQL: the order of text differs between databases' collations.
  return { data: [...byLanguage.values()].sort((a, b) => (a.language < b.language ? -1 : a.language > b.language ? 1 : 0)) };
}

export interface ListJobListingsInput extends PageRequest {
  status?: JobListingStatus[] | undefined;
  updatedSince?: string | undefined;
  q?: string | undefined;
  workPlaceType?: WorkPlaceType[] | undefined;
  positionType?: PositionType[] | undefined;
}

/** A repeated enumeration filter as a set (sorted, so the cursor's scope does not depend on the order given); none: undefined. */
function valueSet<T extends string>(values: T[] | undefined): T[] | undefined {
  return values && values.length > 0 ? [...new Set(values)].sort() : undefined;
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
    // Part of the cursor's scope (a cursor made with another q is refused). Without q the key is
    // left out of the scope's JSON, so cursors handed out before q existed stay valid.
    q: positionSearch(input.q),
    // Left out of the scope's JSON when not given, as q is.
    workPlaceTypes: valueSet(input.workPlaceType),
    positionTypes: valueSet(input.positionType),
  };
  const position = startPage(ctx.secrets, input, 'job-listings', filter.updatedSince ? CHANGED_SINCE : NEWEST_FIRST, filter);
  const { rows: fetched, total } = await listJobListingRows(ctx.db, filter, position);
  const { rows, ...cursors } = endPage(fetched, position, (row) =>
    position.ordering.sync ? [row.updatedAt, row.id] : [row.createdAt, row.id],
  );
  const { items, language } = await presentJobListingItems(ctx, companyId, rows, options);
  return { page: toPage(items, total, position, cursors), language };
}

/** `q` trimmed; a q of spaces alone is refused rather than read as "no filter". */
function positionSearch(q: string | undefined): string | undefined {
  if (q === undefined) return undefined;
  const trimmed = q.trim();
  if (!trimmed) throw ValidationError.field('q', 'must contain something other than spaces');
  return trimmed;
}

/**
 * The listing's status, share-locked until the transaction of `ctx` ends (joined through the
 * context, so it cannot be closed while an application to it is being written). Undefined for a
 * missing or another company's id.
 */
export async function lockJobListingStatus(
  ctx: ServiceContext,
  companyId: string,
  id: string,
): Promise<{ id: string; status: string } | undefined> {
  return withTransaction(ctx, (tx) => findJobListingStatus(tx.db, companyId, id));
}

/** An ACTIVE listing as a public list (the job board, the careers pages) shows it. */
export interface ActiveJobListingSummary {
  id: string;
  position: { value: string; translated: boolean };
  positionType: string;
  workPlaceType: string;
  sectorId: string | null;
  /** City, region and country (ISO 3166-1 alpha-2) of its address; null without one. */
  location: { city: string | null; state: string | null; country: string | null } | null;
  /** The language of the listing as written (BCP 47). */
  sourceLanguage: string;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  expiresAt: string | null;
}

export interface ListActiveJobListingsInput extends PageRequest {
  workPlaceType?: string | undefined;
  positionType?: string | undefined;
  country?: string | undefined;
  sectorId?: string | undefined;
  q?: string | undefined;
}

/**
 * The company's ACTIVE listings, newest first (created), paginated like every list (page or
 * cursor), filtered by work place type, position type, country, sector and a text in the position
 * (as written or translated); each position in the caller's best language, as listJobListings.
 */
export async function listActiveJobListings(
  ctx: ServiceContext,
  companyId: string,
  input: ListActiveJobListingsInput,
  options: LanguageOptions = {},
): Promise<{ page: Page<ActiveJobListingSummary>; language: string }> {
  const filter = {
    companyId,
    workPlaceType: input.workPlaceType,
    positionType: input.positionType,
    country: input.country?.toUpperCase(),
    sectorId: input.sectorId,
    q: positionSearch(input.q),
  };
  const position = startPage(ctx.secrets, input, 'active-job-listings', NEWEST_FIRST, filter);
  const { rows: fetched, total } = await listActiveListingRows(ctx.db, filter, position);
  const { rows, ...cursors } = endPage(fetched, position, (row) => [row.createdAt, row.id]);
  const { items, language } = await presentJobListingItems(
    ctx,
    companyId,
    rows.map((row) => ({ ...row, status: 'ACTIVE' })),
    options,
  );
  const summaries = rows.map((row, index): ActiveJobListingSummary => ({
    id: row.id,
    position: items[index].position,
    positionType: row.positionType,
    workPlaceType: row.workPlaceType,
    sectorId: row.sectorId,
    location:
      row.addressCity === null && row.addressState === null && row.addressCountry === null
        ? null
        : { city: row.addressCity, state: row.addressState, country: row.addressCountry },
    sourceLanguage: row.language,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    publishedAt: row.publishedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  }));
  return { page: toPage(summaries, total, position, cursors), language };
}
