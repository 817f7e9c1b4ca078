// SQL of the job listings module. Every query that starts from a request filters by company.
import { and, asc, eq, getTableColumns, inArray, lte, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { alias, PgDialect, type AnyPgColumn, type PgTable } from 'drizzle-orm/pg-core';
import { queryRows, queryStatement, type Db } from '../../db/client.ts';
import { selectList } from '../../db/select-list.ts';
import { keysetAfter, keysetOrderBy } from '../../db/keyset.ts';
import { flagsKey, PageStatements, placeholderOf } from '../../db/page-statements.ts';
import { keptCountQuery } from '../../infra/kept-counts/read.ts';
import { CHANGED_SINCE, NEWEST_FIRST, type PagePosition, type SortKeyValue } from '../../shared/pagination.ts';
import {
  jobListingBenefits,
  jobListingHiringSteps,
  jobListingRequirements,
  jobListings,
  jobListingSkills,
  jobListingTags,
  jobListingTranslations,
} from './tables.ts';
import type {
  BenefitRow,
  HiringStepRow,
  JobListingAggregate,
  JobListingRow,
  RequirementRow,
  SkillRow,
  TagLinkRow,
  TranslationRow,
} from './view.ts';

export interface ListingChildren {
  skills: SkillRow[];
  benefits: BenefitRow[];
  hiringSteps: HiringStepRow[];
  tags: TagLinkRow[];
  requirements: RequirementRow[];
}

export async function insertJobListing(db: Db, aggregate: JobListingAggregate): Promise<void> {
  await db.insert(jobListings).values(aggregate.listing);
  await replaceChildren(db, aggregate.listing.id, aggregate);
}

/** Replaces the given child collections (only those present in `children`). */
export async function replaceChildren(db: Db, listingId: string, children: Partial<ListingChildren>): Promise<void> {
  if (children.skills) {
    await db.delete(jobListingSkills).where(eq(jobListingSkills.jobListingId, listingId));
    if (children.skills.length) await db.insert(jobListingSkills).values(children.skills);
  }
  if (children.benefits) {
    await db.delete(jobListingBenefits).where(eq(jobListingBenefits.jobListingId, listingId));
    if (children.benefits.length) await db.insert(jobListingBenefits).values(children.benefits);
  }
  if (children.hiringSteps) {
    await db.delete(jobListingHiringSteps).where(eq(jobListingHiringSteps.jobListingId, listingId));
    if (children.hiringSteps.length) await db.insert(jobListingHiringSteps).values(children.hiringSteps);
  }
  if (children.tags) {
    await db.delete(jobListingTags).where(eq(jobListingTags.jobListingId, listingId));
    if (children.tags.length) await db.insert(jobListingTags).values(children.tags);
  }
  if (children.requirements) {
    await db.delete(jobListingRequirements).where(eq(jobListingRequirements.jobListingId, listingId));
    if (children.requirements.length) await db.insert(jobListingRequirements).values(children.requirements);
  }
}

/**
 * The status of the company's listing, or undefined when there is none (or it is another
 * company's), the row locked FOR SHARE until the transaction ends: for applications, through
 * lockJobListingStatus (service.ts) in their transaction, so the listing cannot be closed, archived
 * or deleted between the check and the insert of the application.
 */
export async function findJobListingStatus(
  db: Db,
  companyId: string,
  id: string,
): Promise<{ id: string; status: string } | undefined> {
  const [row] = await db
    .select({ id: jobListings.id, status: jobListings.status })
    .from(jobListings)
    .where(and(eq(jobListings.id, id), eq(jobListings.companyId, companyId)))
    .limit(1)
    .for('share');
  return row;
}

/** Column types whose JSON (json_build_object) reads back as Drizzle reads the column itself. */
type JsonFaithful = 'PgUUID' | 'PgText' | 'PgInteger' | 'PgBoolean' | 'PgDoublePrecision';
type ChildTable = PgTable & { jobListingId: AnyPgColumn };
/** `T` itself when every column of it is JsonFaithful, else never (a timestamp or numeric column would come back as text). */
type ReadableAsJson<T extends ChildTable> = T['_']['columns'][keyof T['_']['columns']]['_']['columnType'] extends JsonFaithful ? T : never;

/**
 * One child collection of the listings `which` selects, as a JSON array in `order`: each row an
 * object of every column of the table, keyed as Drizzle names it (from tables.ts, so a column added
 * there is read here too; one of a type JSON does not carry faithfully fails to compile).
 */
function collectionJson<T extends ChildTable>(table: T & ReadableAsJson<T>, which: SQL, order: AnyPgColumn[]): SQL {
  const fields = Object.entries(getTableColumns(table)).map(([key, column]) => sql`${sql.raw(`'${key}'`)}, ${column}`);
  return sql`(SELECT coalesce(json_agg(json_build_object(${sql.join(fields, sql`, `)}) ORDER BY ${sql.join(order, sql`, `)}), '[]')
    FROM ${table} WHERE ${table.jobListingId} ${which})`;
}

/**
 * The five child collections of the listings `which` selects, as one JSON object of arrays, each in
 * its order: one round trip, not five. Tag links keep the order they were given in: their ids are
 * made in that order only by chance, so they carry no order column; sorted by tag for a stable answer.
 */
function childrenJson(which: SQL): SQL {
  return sql`json_build_object(
    'skills', ${collectionJson(jobListingSkills, which, [jobListingSkills.sortOrder])},
    'benefits', ${collectionJson(jobListingBenefits, which, [jobListingBenefits.sortOrder])},
    'hiringSteps', ${collectionJson(jobListingHiringSteps, which, [jobListingHiringSteps.stepOrder, jobListingHiringSteps.id])},
    'tags', ${collectionJson(jobListingTags, which, [jobListingTags.tagId])},
    'requirements', ${collectionJson(jobListingRequirements, which, [jobListingRequirements.sortOrder])}
  )`;
}

/** Adds the children read by childrenJson to their listings (the drivers differ: parsed JSON or its text). */
function addChildren(byListing: Map<string, ListingChildren>, json: unknown): void {
  const collections = (typeof json === 'string' ? JSON.parse(json) : json) as Record<keyof ListingChildren, Array<{ jobListingId: string }>>;
  for (const key of ['skills', 'benefits', 'hiringSteps', 'tags', 'requirements'] as const) {
    for (const child of collections[key]) (byListing.get(child.jobListingId)![key] as unknown[]).push(child);
  }
}

export async function loadChildren(db: Db, listingIds: string[]): Promise<Map<string, ListingChildren>> {
  const byListing = new Map<string, ListingChildren>();
  for (const id of listingIds) byListing.set(id, { skills: [], benefits: [], hiringSteps: [], tags: [], requirements: [] });
  if (listingIds.length === 0) return byListing;
  const ids = sql.join(
    listingIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const [row] = await queryRows<{ children: unknown }>(db, sql`SELECT ${childrenJson(sql`IN (${ids})`)} AS children`);
  addChildren(byListing, row.children);
  return byListing;
}

/** The listing's columns in LISTING_AGGREGATE's select list order (selectList's), the children after them. */
const LISTING_KEYS = Object.keys(getTableColumns(jobListings));

/** findJobListingAggregate's fixed statement: $1 the listing, $2 the company. */
const LISTING_AGGREGATE = `select ${selectList(jobListings)}, ${new PgDialect().sqlToQuery(childrenJson(sql.raw('= $1'))).sql} as children
  from job_listings where id = $1 and company_id = $2`;

/**
 * The company's listing with its children in one statement, or undefined (also for another
 * company's id). A fixed statement, prepared once per connection (queryStatement): building and
 * planning it through the query builder cost more than running it (0.12-0.18 ms of planning for
 * 0.05 of running); `lock` takes the listing's row lock for the caller's transaction.
 */
export async function findJobListingAggregate(
  db: Db,
  companyId: string,
  id: string,
  options: { lock?: 'update' } = {},
): Promise<JobListingAggregate | undefined> {
  const text = options.lock === 'update' ? `${LISTING_AGGREGATE} for update` : LISTING_AGGREGATE;
  const [found] = await queryStatement<unknown[]>(db, text, [id, companyId], { arrays: true });
  if (!found) return undefined;
  // Read as an array and stored under the table's keys, always in the same order: the driver's own
  // row object stores each of the 40-odd columns under a name decoded anew from every answer.
  const listing: Record<string, unknown> = {};
  for (let i = 0; i < LISTING_KEYS.length; i++) listing[LISTING_KEYS[i]] = found[i];
  const byListing = new Map<string, ListingChildren>([[id, { skills: [], benefits: [], hiringSteps: [], tags: [], requirements: [] }]]);
  addChildren(byListing, found[LISTING_KEYS.length]);
  return { listing: listing as JobListingRow, ...byListing.get(id)! };
}

export async function updateJobListingRow(
  db: Db,
  id: string,
  patch: Partial<Omit<JobListingRow, 'id' | 'companyId' | 'createdAt'>>,
): Promise<JobListingRow> {
  const [row] = await db.update(jobListings).set(patch).where(eq(jobListings.id, id)).returning();
  return row;
}

export async function deleteJobListingRow(db: Db, id: string): Promise<void> {
  // Child rows and translations go with it (ON DELETE CASCADE).
  await db.delete(jobListings).where(eq(jobListings.id, id));
}

/** Deletes the company's listings with these ids for good, whatever their status (children with them); answers how many. */
export async function deleteJobListingRows(db: Db, companyId: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await db
    .delete(jobListings)
    .where(and(eq(jobListings.companyId, companyId), inArray(jobListings.id, ids)))
    .returning({ id: jobListings.id });
  return rows.length;
}

export interface ListFilter {
  companyId: string;
  /** Only these states; undefined: every state but ARCHIVED. */
  statuses: string[] | undefined;
  updatedSince: Date | undefined;
  /** Only listings whose position contains this text (see positionContains). */
  q?: string | undefined;
  /** Only these kinds of work place / position (undefined: any). */
  workPlaceTypes?: string[] | undefined;
  positionTypes?: string[] | undefined;
}

/** What a list item needs (view.ts, presenter.ts), named by the table's keys: a renamed column fails to compile. */
const SUMMARY_KEYS = ['id', 'status', 'position', 'positionType', 'workPlaceType', 'createdAt', 'updatedAt', 'language'] as const;
export type ListingSummaryRow = Pick<JobListingRow, (typeof SUMMARY_KEYS)[number]>;

/** Where each column is in a page statement's row read by index: the total, then SUMMARY_KEYS' order. */
const SUMMARY_AT = Object.fromEntries(SUMMARY_KEYS.map((key, i) => [key, i + 1])) as Record<keyof ListingSummaryRow, number>;

/**
 * A page statement's row as one literal (typed by the table's keys: a key added to SUMMARY_KEYS
 * fails to compile here until it is read). pg's row objects stored every column by its name at one
 * site shared by every statement: ~35,000 instructions of a 20-row page (callgrind). Each index is
 * read by its name from SUMMARY_AT (one load site per column): through a function taking the key,
 * one site read every key, a megamorphic load per column.
 */
function summaryOf(values: unknown[]): ListingSummaryRow {
  const at = SUMMARY_AT;
  return {
    id: values[at.id] as ListingSummaryRow['id'],
    status: values[at.status] as ListingSummaryRow['status'],
    position: values[at.position] as ListingSummaryRow['position'],
    positionType: values[at.positionType] as ListingSummaryRow['positionType'],
    workPlaceType: values[at.workPlaceType] as ListingSummaryRow['workPlaceType'],
    createdAt: values[at.createdAt] as ListingSummaryRow['createdAt'],
    updatedAt: values[at.updatedAt] as ListingSummaryRow['updatedAt'],
    language: values[at.language] as ListingSummaryRow['language'],
  };
}

/** The values a page statement binds, by the name of its placeholder. */
interface PageValues {
  companyId: string;
  statuses: string[];
  updatedSince: string;
  pattern: string;
  /** null: any (the kinds filter has one or both). */
  workPlaceTypes: string[] | null;
  positionTypes: string[] | null;
  afterKey: SortKeyValue;
  afterId: SortKeyValue;
  limit: number;
  offset: number;
}
const value = placeholderOf<PageValues>();
/** The cursor's sort keys, as placeholders bound when the statement runs. */
const AFTER_PLACEHOLDERS = [value('afterKey'), value('afterId')] as unknown as SortKeyValue[];

/**
 * Which of the filters a page has, and whether it starts after a cursor. `kinds`: by work place
 * type, position type or both, one flag for the two (each a parameter that may be null): what the
 * flag changes is the total, counted rather than read from the kept counts, which know only statuses.
 */
const PAGE_FLAGS = ['statuses', 'updatedSince', 'search', 'kinds', 'after'] as const;
type PageShape = Record<(typeof PAGE_FLAGS)[number], boolean>;

/** The listing a translation is of, in positionContains (which also reads the listings it filters). */
const translatedListing = alias(jobListings, 'translated_listing');

/**
 * The position contains the text bound to `pattern` (a LIKE pattern, see likePattern),
 * case-insensitively, as written or in a stored translation of it (docs/decisions.md, "Job
 * listings"). A translation counts only while its original is still the listing's position.
 * Written so that both halves are index scans (migration 0041's trigram indexes): the position's
 * ILIKE as is, the translations' matches of the company found once (an array, not a subquery per
 * listing), so the planner ORs the two bitmaps. Exported for the plan test only.
 */
export function positionContains(companyId: Placeholder | SQL, pattern: Placeholder | SQL) {
  const t = jobListingTranslations;
  const l = translatedListing;
  return sql`(${jobListings.position} ILIKE ${pattern} OR ${jobListings.id} = any(array(
    SELECT ${t.jobListingId} FROM ${t} JOIN ${jobListings} ${l} ON ${l.id} = ${t.jobListingId} AND ${l.position} = ${t.sourceText}
      WHERE ${t.field} = 'position' AND ${t.text} ILIKE ${pattern} AND ${l.companyId} = ${companyId})))`;
}

/** The column is one of the text[] bound to `values`, or that is null (no condition). */
function anyOf(column: AnyPgColumn, values: Placeholder): SQL {
  return sql`(${values}::text[] is null or ${column} = any(${values}::text[]))`;
}

/** `text` as a LIKE pattern matching it anywhere; its own wildcards match only themselves. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * The one page statement of the listings list, for every filter: a page and its total in one
 * statement (one round trip, one snapshot: the total always agrees with the page). The total comes
 * as a row of its own (a left join), so a page past the end still answers it. Newest-first pages
 * read the kept counts (src/infra/kept-counts/read.ts); a sync (updatedSince) or a search counts its
 * rows. Built once per shape from tables.ts, its values bound by name when it runs.
 */
function pageStatement(shape: PageShape): SQL {
  const ordering = shape.updatedSince ? CHANGED_SINCE : NEWEST_FIRST;
  const sortKeys = shape.updatedSince ? [jobListings.updatedAt, jobListings.id] : [jobListings.createdAt, jobListings.id];
  const where = and(
    eq(jobListings.companyId, value('companyId')),
    shape.statuses ? sql`${jobListings.status} = any(${value('statuses')}::text[])` : sql`${jobListings.status} <> 'ARCHIVED'`,
    shape.updatedSince ? sql`${jobListings.updatedAt} >= ${value('updatedSince')}::timestamptz` : undefined,
    shape.search ? positionContains(value('companyId'), value('pattern')) : undefined,
    shape.kinds ? anyOf(jobListings.workPlaceType, value('workPlaceTypes')) : undefined,
    shape.kinds ? anyOf(jobListings.positionType, value('positionTypes')) : undefined,
  )!;
  const total =
    shape.updatedSince || shape.search || shape.kinds
      ? sql`(select count(*)::int from ${jobListings} where ${where})`
      : keptCountQuery(value('companyId'), 'job_listings', shape.statuses ? { statuses: value('statuses') } : { exceptStatuses: ['ARCHIVED'] });
  const columns = SUMMARY_KEYS.map((key) => sql`${jobListings[key]} as ${sql.identifier(key)}`);
  const after = shape.after ? keysetAfter(sortKeys, { ordering, after: AFTER_PLACEHOLDERS }) : undefined;
  const direction = sql.raw(ordering.direction);
  const sortAliases = [shape.updatedSince ? 'updatedAt' : 'createdAt', 'id'].map((key) => sql`p.${sql.identifier(key)} ${direction}`);
  return sql`select t.total, p.* from (select ${total} as total) t
    left join lateral (select ${sql.join(columns, sql`, `)} from ${jobListings}
      where ${and(where, after)}
      order by ${sql.join(keysetOrderBy(sortKeys, { ordering }), sql`, `)} limit ${value('limit')} offset ${value('offset')}) p on true
    order by ${sql.join(sortAliases, sql`, `)}`;
}

const PAGE_STATEMENTS = new PageStatements<PageShape, PageValues>(flagsKey(PAGE_FLAGS), pageStatement);

/** `position`: newest first, or (updatedAt, id) ascending with updatedSince; see src/shared/pagination.ts. */
export async function listJobListingRows(
  db: Db,
  filter: ListFilter,
  position: PagePosition,
): Promise<{ rows: ListingSummaryRow[]; total: number }> {
  const shape: PageShape = {
    statuses: filter.statuses !== undefined,
    updatedSince: filter.updatedSince !== undefined,
    search: filter.q !== undefined,
    kinds: filter.workPlaceTypes !== undefined || filter.positionTypes !== undefined,
    after: position.after !== undefined,
  };
  const statement = PAGE_STATEMENTS.bind(shape, {
    companyId: filter.companyId,
    statuses: filter.statuses,
    updatedSince: filter.updatedSince?.toISOString(),
    pattern: filter.q === undefined ? undefined : likePattern(filter.q),
    workPlaceTypes: filter.workPlaceTypes ?? null,
    positionTypes: filter.positionTypes ?? null,
    afterKey: position.after?.[0],
    afterId: position.after?.[1],
    limit: position.limit,
    offset: position.offset,
  });
  const found = await queryStatement<unknown[]>(
    db,
    statement.text,
    statement.values,
    // The best plan of a newest-first page is the same whatever its values: planned once. By
    // status or kind, it depends on how common they are; a sync or a search, on their values.
    { planOnce: !shape.statuses && !shape.updatedSince && !shape.search && !shape.kinds, arrays: true },
  );
  const total = found[0][0] as number;
  // Past the end, the total's row alone (no listing: a null id).
  return { rows: found[0][SUMMARY_AT.id] === null ? [] : found.map(summaryOf), total };
}

// --- translations -------------------------------------------------------------------------------

/** Translations of the given listings, optionally only into `languages` and of one `field`. */
export async function findTranslations(
  db: Db,
  listingIds: string[],
  filter: { languages?: string[]; field?: string } = {},
): Promise<TranslationRow[]> {
  if (listingIds.length === 0 || filter.languages?.length === 0) return [];
  return db
    .select()
    .from(jobListingTranslations)
    .where(
      and(
        inArray(jobListingTranslations.jobListingId, listingIds),
        filter.languages ? inArray(jobListingTranslations.language, filter.languages) : undefined,
        filter.field ? eq(jobListingTranslations.field, filter.field) : undefined,
      ),
    );
}

/** The languages a listing has any translation in. */
export async function translationLanguages(db: Db, listingId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ language: jobListingTranslations.language })
    .from(jobListingTranslations)
    .where(eq(jobListingTranslations.jobListingId, listingId));
  return rows.map((row) => row.language);
}

/** Whether the company has this listing (another company's id: false). No lock, unlike findJobListingStatus. */
export async function jobListingExists(db: Db, companyId: string, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: jobListings.id })
    .from(jobListings)
    .where(and(eq(jobListings.id, id), eq(jobListings.companyId, companyId)))
    .limit(1);
  return row !== undefined;
}

/**
 * Per language and type, the listing's stored translations and when the latest was made. Editing an
 * original prunes its translations (pruneTranslations), so what is stored is of the current texts.
 */
export async function translationSummary(
  db: Db,
  listingId: string,
): Promise<{ language: string; translationType: string; updatedAt: Date }[]> {
  const t = jobListingTranslations;
  return db
    .select({ language: t.language, translationType: t.translationType, updatedAt: sql<Date>`max(${t.createdAt})`.mapWith(t.createdAt) })
    .from(t)
    .where(eq(t.jobListingId, listingId))
    .groupBy(t.language, t.translationType);
}

/** Stores translations; one that already exists (same language, type, field and original) is kept. */
export async function insertTranslations(db: Db, rows: TranslationRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(jobListingTranslations).values(rows).onConflictDoNothing();
}

export async function deleteTranslations(db: Db, listingId: string, language: string, type: 'HUMAN' | 'AI'): Promise<void> {
  await db
    .delete(jobListingTranslations)
    .where(
      and(
        eq(jobListingTranslations.jobListingId, listingId),
        eq(jobListingTranslations.language, language),
        eq(jobListingTranslations.translationType, type),
      ),
    );
}

/**
 * Drops translations whose original is no longer among the listing's texts (after an edit they
 * can never apply again). `current` lists the (field, original) pairs the listing has now.
 */
export async function pruneTranslations(db: Db, listingId: string, current: { field: string; source: string }[]): Promise<void> {
  const keep = current.map((text) => sql`(${text.field}, ${text.source})`);
  await db.delete(jobListingTranslations).where(
    and(
      eq(jobListingTranslations.jobListingId, listingId),
      keep.length
        ? sql`(${jobListingTranslations.field}, ${jobListingTranslations.sourceText}) NOT IN (${sql.join(keep, sql`, `)})`
        : undefined,
    ),
  );
}

// --- expiry -------------------------------------------------------------------------------------

/**
 * ACTIVE listings whose expiresAt has passed, oldest first, locked for this transaction. SKIP
 * LOCKED lets several workers sweep at once without waiting on or closing the same listing twice.
 */
export async function lockExpiredActiveListings(db: Db, now: Date, limit: number): Promise<JobListingRow[]> {
  return db
    .select()
    .from(jobListings)
    .where(and(eq(jobListings.status, 'ACTIVE'), lte(jobListings.expiresAt, now)))
    .orderBy(asc(jobListings.expiresAt))
    .limit(limit)
    .for('update', { skipLocked: true });
}

// --- machine translation ------------------------------------------------------------------------

/** Listings whose machine translation is due by `now`, the longest waiting first. */
export async function findMachineTranslationsDue(
  db: Db,
  now: Date,
  limit: number,
): Promise<{ id: string; companyId: string; dueAt: Date }[]> {
  const rows = await db
    .select({ id: jobListings.id, companyId: jobListings.companyId, dueAt: jobListings.machineTranslationDueAt })
    .from(jobListings)
    .where(lte(jobListings.machineTranslationDueAt, now))
    .orderBy(asc(jobListings.machineTranslationDueAt))
    .limit(limit);
  return rows.map((row) => ({ ...row, dueAt: row.dueAt! }));
}

/**
 * Moves the listing's due mark from `dueAt` to `next` (null: done). A mark changed meanwhile (an
 * edit marked it again) is left alone: that newer work is still due.
 */
export async function settleMachineTranslation(db: Db, id: string, dueAt: Date, next: Date | null): Promise<void> {
  await db
    .update(jobListings)
    .set({ machineTranslationDueAt: next })
    .where(and(eq(jobListings.id, id), eq(jobListings.machineTranslationDueAt, dueAt)));
}

// --- public lists (the job board and careers pages) ----------------------------------------------

export interface PublicListFilter {
  companyId: string;
  workPlaceType?: string | undefined;
  positionType?: string | undefined;
  country?: string | undefined;
  sectorId?: string | undefined;
  /** Only listings whose position contains this text (see positionContains). */
  q?: string | undefined;
  /** Only these kinds of work place / position (undefined: any). */
  workPlaceTypes?: string[] | undefined;
  positionTypes?: string[] | undefined;
}

/** What a public list item needs, named by the table's keys. */
const PUBLIC_SUMMARY_KEYS = [
  'id',
  'position',
  'positionType',
  'workPlaceType',
  'sectorId',
  'addressCity',
  'addressState',
  'addressCountry',
  'language',
  'createdAt',
  'updatedAt',
  'publishedAt',
  'expiresAt',
] as const;
export type PublicListingSummaryRow = Pick<JobListingRow, (typeof PUBLIC_SUMMARY_KEYS)[number]>;

/**
 * A page of the company's ACTIVE listings, newest first, and how many match: what a job board
 * shows. The partial index of migration 0038 serves it; an unfiltered page's total comes from the
 * kept counts, a filtered one counts its rows.
 */
export async function listActiveListingRows(
  db: Db,
  filter: PublicListFilter,
  position: PagePosition,
): Promise<{ rows: PublicListingSummaryRow[]; total: number }> {
  const where = and(
    eq(jobListings.companyId, filter.companyId),
    eq(jobListings.status, 'ACTIVE'),
    filter.workPlaceType === undefined ? undefined : eq(jobListings.workPlaceType, filter.workPlaceType),
    filter.positionType === undefined ? undefined : eq(jobListings.positionType, filter.positionType),
    filter.country === undefined ? undefined : eq(jobListings.addressCountry, filter.country),
    filter.sectorId === undefined ? undefined : eq(jobListings.sectorId, filter.sectorId),
    filter.q === undefined ? undefined : positionContains(sql`${filter.companyId}`, sql`${likePattern(filter.q)}`),
  )!;
  const filtered = filter.workPlaceType ?? filter.positionType ?? filter.country ?? filter.sectorId ?? filter.q;
  const sortKeys = [jobListings.createdAt, jobListings.id];
  const columns = Object.fromEntries(PUBLIC_SUMMARY_KEYS.map((key) => [key, jobListings[key]])) as {
    [K in (typeof PUBLIC_SUMMARY_KEYS)[number]]: (typeof jobListings)[K];
  };
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(columns)
      .from(jobListings)
      .where(and(where, keysetAfter(sortKeys, position)))
      .orderBy(...keysetOrderBy(sortKeys, position))
      .limit(position.limit)
      .offset(position.offset),
    queryRows<{ total: number }>(
      db,
      filtered === undefined
        ? sql`select ${keptCountQuery(filter.companyId, 'job_listings', { statuses: ['ACTIVE'] })} as total`
        : sql`select count(*)::int as total from ${jobListings} where ${where}`,
    ),
  ]);
  return { rows, total };
}
