import { and, count, desc, eq, getTableColumns, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { queryStatement, type Db } from '../../db/client.ts';
import { selectList } from '../../db/select-list.ts';
import { applicationDayAtOffsetSql, keptCountQuery } from '../../infra/kept-counts/read.ts';
import { eventInsertText } from '../../infra/outbox/record-event.ts';
import { candidateSearchQuery, type CandidateSummaryView } from '../candidates/service.ts';
import { keysetAfter, keysetBefore, keysetOrderBy } from '../../db/keyset.ts';
import { flagsKey, PageStatements, placeholderOf } from '../../db/page-statements.ts';
import { CHANGED_SINCE, NEWEST_FIRST, type NewestFirstWindow, type PagePosition, type SortKeyValue } from '../../shared/pagination.ts';
import { funnelRank } from './stages.ts';
import { applications, applicationStatusHistory } from './tables.ts';

export type ApplicationRow = typeof applications.$inferSelect;
export type StatusHistoryRow = typeof applicationStatusHistory.$inferSelect;

export async function findApplication(db: Db, companyId: string, id: string): Promise<ApplicationRow | undefined> {
  const [row] = await db
    .select()
    .from(applications)
    .where(and(eq(applications.companyId, companyId), eq(applications.id, id)))
    .limit(1);
  return row;
}

/** A candidate's summary read beside an application from the view candidate_summaries (its `c` alias). */
interface CandidateColumns {
  cFirstName: string | null;
  cLastName: string | null;
  cHeadline: string | null;
  cEmail: string | null;
  cPhone: string | null;
}

/** The view's columns, as CandidateColumns names them. */
const CANDIDATE_COLUMNS = `c.first_name as "cFirstName", c.last_name as "cLastName", c.headline as "cHeadline", c.email as "cEmail", c.phone as "cPhone"`;

/** findApplicationVersion's statement: $1 the company, $2 the application. */
const APPLICATION_VERSION = `select ${selectList(applications, 'a')}, a.xmin::text as version, ${CANDIDATE_COLUMNS}
  from applications a left join candidate_summaries c on c.id = a.candidate_id and c.company_id = $1
  where a.company_id = $1 and a.id = $2`;

/** An application and its candidate's summary, read together (candidate undefined only if missing, which the foreign key rules out). */
export interface ApplicationWithCandidate {
  row: ApplicationRow;
  candidate: CandidateSummaryView | undefined;
}

/** The candidate's summary from the CANDIDATE_COLUMNS read beside an application's columns (undefined if it has none). */
function candidateOf(row: ApplicationRow & CandidateColumns): CandidateSummaryView | undefined {
  if (row.cEmail === null) return undefined;
  return { id: row.candidateId, firstName: row.cFirstName!, lastName: row.cLastName!, headline: row.cHeadline, email: row.cEmail, phone: row.cPhone };
}


/**
 * The company's application, its row version (`xmin`: every update of the row changes it) and its
 * candidate's summary (through the candidates module's view candidate_summaries), in one fixed
 * statement prepared once per connection: a status move's read, and a single application's.
 */
export async function findApplicationVersion(
  db: Db,
  companyId: string,
  id: string,
): Promise<(ApplicationWithCandidate & { version: string }) | undefined> {
  const [found] = await queryStatement<ApplicationRow & { version: string } & CandidateColumns>(db, APPLICATION_VERSION, [companyId, id]);
  if (!found) return undefined;
  // The row as read (its version and the candidate's columns stay on it, unread): no copy.
  return { row: found, candidate: candidateOf(found), version: found.version };
}

const HISTORY_COLUMNS = Object.entries(getTableColumns(applicationStatusHistory)) as Array<[keyof StatusHistoryRow, PgColumn]>;
const MOVE_VALUES = 7;

/**
 * moveApplicationIfVersion's statement: $1 the company, $2 the application, $3 the row version,
 * $4 the new stage, $5 the time, $6 the stage's funnel rank, $7 the rejection reason (null: none,
 * which clears the last one), then the history row's columns in their
 * order in tables.ts, then the outbox event's (eventInsertText). A data-modifying WITH runs to
 * completion whether or not the statement reads it; the history row and the event are written only
 * if the update moved the row (`from moved`).
 */
const MOVE_IF_VERSION = `with moved as (
    update applications set status = $4, updated_at = $5::timestamptz, furthest_stage = greatest(furthest_stage, $6::smallint),
      rejection_reason_id = $7::uuid
    where company_id = $1 and id = $2 and xmin = $3::xid
    returning id
  ),
  history as (
    insert into application_status_history (${HISTORY_COLUMNS.map(([, column]) => column.name).join(', ')})
    select ${HISTORY_COLUMNS.map(([, column], index) => `$${index + MOVE_VALUES + 1}::${column.getSQLType()}`).join(', ')} from moved
  ),
  event as (${eventInsertText(MOVE_VALUES + HISTORY_COLUMNS.length + 1, 'moved')})
  select count(*)::int as moved from moved`;

/**
 * A status move in one statement, no transaction around it (one statement is atomic): the row
 * moves to the history row's stage (and rejection reason) at its time only if it is still `version`, its furthest funnel
 * stage rises to that stage's rank (`greatest` over the row as updated, so no rank is lost), and
 * then its history row and its outbox event (`eventValues`: eventInsertValues) are written; else
 * nothing is and the answer is false. The UPDATE waits for a concurrent move of the row; once that
 * one commits, the row is another version and this one changes nothing. The kept counts follow by
 * the row's update trigger in the same statement.
 */
export async function moveApplicationIfVersion(
  db: Db,
  move: { version: string; history: StatusHistoryRow; eventValues: unknown[] },
): Promise<boolean> {
  const { history } = move;
  const columns = HISTORY_COLUMNS.map(([key]) => {
    const value = history[key];
    return value instanceof Date ? value.toISOString() : value;
  });
  const values = [
    history.companyId,
    history.applicationId,
    move.version,
    history.toStatus,
    history.changedAt.toISOString(),
    funnelRank(history.toStatus),
    history.rejectionReasonId,
  ];
  const [row] = await queryStatement<{ moved: number }>(db, MOVE_IF_VERSION, [...values, ...columns, ...move.eventValues]);
  return row?.moved === 1;
}

/** Inserts the rows whose candidate has not applied to the listing yet; answers the rows inserted. */
export async function insertApplicationsIfAbsent(db: Db, rows: ApplicationRow[]): Promise<ApplicationRow[]> {
  if (rows.length === 0) return [];
  return db
    .insert(applications)
    .values(rows)
    .onConflictDoNothing({ target: [applications.jobListingId, applications.candidateId] })
    .returning();
}

export async function findApplicationsOfListing(
  db: Db,
  companyId: string,
  jobListingId: string,
  candidateIds: string[],
): Promise<ApplicationRow[]> {
  if (candidateIds.length === 0) return [];
  return db
    .select()
    .from(applications)
    .where(
      and(
        eq(applications.companyId, companyId),
        eq(applications.jobListingId, jobListingId),
        inArray(applications.candidateId, candidateIds),
      ),
    );
}

export async function insertStatusHistory(db: Db, rows: StatusHistoryRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(applicationStatusHistory).values(rows);
}

export interface ApplicationFilters {
  jobListingId?: string | undefined;
  statuses?: string[] | undefined;
  candidateId?: string | undefined;
  updatedSince?: Date | undefined;
  /** Only these sources. */
  sources?: string[] | undefined;
  /** Applied at or after this instant. */
  appliedFrom?: Date | undefined;
  /** Applied before this instant. */
  appliedTo?: Date | undefined;
  /** Only applications whose candidate matches this candidate search (trimmed, not blank). */
  q?: string | undefined;
}

/**
 * From this offset on, a newest-first page counted by the kept counts starts from the day it falls
 * in: the kept per-day counts say on which UTC day of submission the offset falls and how many
 * newer rows come before that day, so the (company, applied_at, id) index is entered at that day's
 * end and walked only within it. Counts and rows come from one statement, one snapshot: the page
 * is exactly the one a plain OFFSET gives. Past the end no day is found: no rows. The day's end
 * bound is a scalar subquery so it enters the index condition (NULL past the end: no rows).
 */
const DEEP_OFFSET = 2_000;

const APPLICATION_COLUMNS = sql.raw(selectList(applications));

/**
 * A page statement's row is read by index (queryStatement's `arrays`): the total, then the
 * application's columns in selectList's order (tables.ts), then CANDIDATE_COLUMNS'. Where each
 * application column is, from the same list the statement's text was made from.
 */
const APPLICATION_AT = Object.fromEntries(Object.keys(getTableColumns(applications)).map((key, i) => [key, i + 1])) as Record<keyof ApplicationRow, number>;
const CANDIDATE_AT = Object.keys(APPLICATION_AT).length + 1;

/** A page statement's row as the application (typed against tables.ts: a new column fails to compile here) and its candidate. */
function pageRowOf(values: unknown[]): ApplicationWithCandidate {
  // Each index read by its name from APPLICATION_AT (one load site per column): through a function
  // taking the key, one site read every key, a megamorphic load per column.
  const at = APPLICATION_AT;
  const row: ApplicationRow = {
    id: values[at.id] as ApplicationRow['id'],
    companyId: values[at.companyId] as ApplicationRow['companyId'],
    jobListingId: values[at.jobListingId] as ApplicationRow['jobListingId'],
    candidateId: values[at.candidateId] as ApplicationRow['candidateId'],
    status: values[at.status] as ApplicationRow['status'],
    source: values[at.source] as ApplicationRow['source'],
    coverLetter: values[at.coverLetter] as ApplicationRow['coverLetter'],
    appliedAt: values[at.appliedAt] as ApplicationRow['appliedAt'],
    updatedAt: values[at.updatedAt] as ApplicationRow['updatedAt'],
    rejectionReasonId: values[at.rejectionReasonId] as ApplicationRow['rejectionReasonId'],
    furthestStage: values[at.furthestStage] as ApplicationRow['furthestStage'],
  };
  const email = values[CANDIDATE_AT + 3] as string | null;
  const candidate =
    email === null
      ? undefined
      : {
          id: row.candidateId,
          firstName: values[CANDIDATE_AT] as string,
          lastName: values[CANDIDATE_AT + 1] as string,
          headline: values[CANDIDATE_AT + 2] as string | null,
          email,
          phone: values[CANDIDATE_AT + 4] as string | null,
        };
  return { row, candidate };
}

/** The values a page statement binds, by the name of its placeholder. */
interface PageValues {
  companyId: string;
  jobListingId: string;
  candidateId: string;
  statuses: string[];
  updatedSince: string;
  sources: string[];
  appliedFrom: string;
  appliedTo: string;
  q: string;
  afterKey: SortKeyValue;
  afterId: SortKeyValue;
  limit: number;
  offset: number;
}
const value = placeholderOf<PageValues>();
/** The cursor's sort keys, as placeholders bound when the statement runs. */
const AFTER_PLACEHOLDERS = [value('afterKey'), value('afterId')] as unknown as SortKeyValue[];

/**
 * Which filters a page has and its shape. `sync`: the sync ordering ((updatedAt, id) ascending),
 * else newest first. `deep`: a newest-first page counted by the kept counts, from DEEP_OFFSET on,
 * without a cursor.
 */
const PAGE_FLAGS = ['jobListingId', 'candidateId', 'statuses', 'updatedSince', 'sources', 'appliedFrom', 'appliedTo', 'q', 'sync', 'after', 'deep'] as const;
type PageShape = Record<(typeof PAGE_FLAGS)[number], boolean>;

/** The filters the kept counts cannot count: any of them makes the total a count of the rows. */
type CountedFilters = Pick<PageShape, 'jobListingId' | 'candidateId' | 'updatedSince' | 'sources' | 'appliedFrom' | 'appliedTo' | 'q'>;

/** The kept counts count the page's total: no filter but statuses. */
const isKept = (shape: CountedFilters) =>
  !shape.jobListingId && !shape.candidateId && !shape.updatedSince && !shape.sources && !shape.appliedFrom && !shape.appliedTo && !shape.q;

/**
 * A page of the company's applications with their candidates' summaries (the candidates module's
 * view candidate_summaries) and its total, in one statement (one round trip, one snapshot: the
 * total describes exactly the rows listed). Every filter is a condition of the same
 * statement; the total is the kept count when the filters are ones it keeps (none, or statuses),
 * else a count through the filters' indexes. The total comes as a row of its own (a left join), so
 * a page past the end still answers it. Built once per shape from tables.ts, its values bound by
 * name when it runs. Each row's candidate is looked up by id in a lateral subquery whose `limit 1`
 * keeps PostgreSQL from flattening it into a join: a plan made once (planOnce) does not know the
 * page's limit, and as a plain join it hashed every candidate of the company (42 ms at 100,000
 * candidates, against 0.2 ms looked up by id).
 */
function pageStatement(shape: PageShape): SQL {
  // A deep page is only ever a kept, newest-first one without a cursor (listApplications).
  if (shape.deep && (!isKept(shape) || shape.sync || shape.after)) throw new Error('no deep page statement for this shape');
  const where = and(
    eq(applications.companyId, value('companyId')),
    shape.jobListingId ? eq(applications.jobListingId, value('jobListingId')) : undefined,
    shape.candidateId ? eq(applications.candidateId, value('candidateId')) : undefined,
    shape.statuses ? sql`${applications.status} = any(${value('statuses')}::text[])` : undefined,
    shape.updatedSince ? sql`${applications.updatedAt} >= ${value('updatedSince')}::timestamptz` : undefined,
    shape.sources ? sql`${applications.source} = any(${value('sources')}::text[])` : undefined,
    shape.appliedFrom ? sql`${applications.appliedAt} >= ${value('appliedFrom')}::timestamptz` : undefined,
    shape.appliedTo ? sql`${applications.appliedAt} < ${value('appliedTo')}::timestamptz` : undefined,
    // The candidate search (the candidates module's view and tsquery): its GIN index answers the
    // company's matches; the tsquery is no correlated subquery, so it is built once per statement.
    shape.q
      ? sql`exists (select 1 from candidate_search_vectors s where s.id = ${applications.candidateId}
          and s.company_id = ${value('companyId')} and s.search_vector @@ ${candidateSearchQuery(value('q'))})`
      : undefined,
  )!;
  const total = isKept(shape)
    ? keptCountQuery(value('companyId'), 'applications', shape.statuses ? { statuses: value('statuses') } : {})
    : sql`(select count(*)::int from ${applications} where ${where})`;

  const ordering = shape.sync ? CHANGED_SINCE : NEWEST_FIRST;
  const sortKeys = shape.sync ? [applications.updatedAt, applications.id] : [applications.appliedAt, applications.id];
  const orderBy = sql.join(keysetOrderBy(sortKeys, { ordering }), sql`, `);
  const rows = shape.deep
    ? sql`select ${APPLICATION_COLUMNS} from ${applications} where ${applications.id} in (
          with target as (${applicationDayAtOffsetSql(value('companyId'), shape.statuses ? value('statuses') : undefined, value('offset'))})
          select ${applications.id} from ${applications}
          where ${where} and ${applications.appliedAt} < (select (day + 1)::timestamp at time zone 'UTC' from target)
          order by ${orderBy}
          offset (select ${value('offset')}::bigint - before from target) limit ${value('limit')})`
    : sql`select ${APPLICATION_COLUMNS} from ${applications}
          where ${and(where, shape.after ? keysetAfter(sortKeys, { ordering, after: AFTER_PLACEHOLDERS }) : undefined)}
          order by ${orderBy} limit ${value('limit')} offset ${value('offset')}`;
  const direction = sql.raw(ordering.direction);
  const sortedBy = shape.sync ? sql`p."updatedAt"` : sql`p."appliedAt"`;
  return sql`select t.total, p.*, ${sql.raw(CANDIDATE_COLUMNS)} from (select ${total} as total) t left join lateral (${rows}) p on true
        left join lateral (select * from candidate_summaries c where c.id = p."candidateId" and c.company_id = ${value('companyId')} limit 1) c on true
        order by ${sortedBy} ${direction}, p.id ${direction}`;
}

const PAGE_STATEMENTS = new PageStatements<PageShape, PageValues>(flagsKey(PAGE_FLAGS), pageStatement);

/** `page`: newest first, or (updatedAt, id) ascending when its ordering is the sync one; see src/shared/pagination.ts. */
export async function listApplications(
  db: Db,
  companyId: string,
  filters: ApplicationFilters,
  page: PagePosition,
): Promise<{ rows: ApplicationWithCandidate[]; total: number }> {
  const statuses = filters.statuses && filters.statuses.length > 0 ? filters.statuses : undefined;
  const sources = filters.sources && filters.sources.length > 0 ? filters.sources : undefined;
  const filtered: CountedFilters = {
    jobListingId: Boolean(filters.jobListingId),
    candidateId: Boolean(filters.candidateId),
    updatedSince: Boolean(filters.updatedSince),
    sources: sources !== undefined,
    appliedFrom: Boolean(filters.appliedFrom),
    appliedTo: Boolean(filters.appliedTo),
    q: filters.q !== undefined,
  };
  const kept = isKept(filtered);
  const sync = Boolean(page.ordering.sync);
  const shape: PageShape = {
    ...filtered,
    statuses: statuses !== undefined,
    sync,
    after: Boolean(page.after),
    deep: kept && !sync && !page.after && page.offset >= DEEP_OFFSET,
  };
  const statement = PAGE_STATEMENTS.bind(shape, {
    companyId,
    jobListingId: filters.jobListingId || undefined,
    candidateId: filters.candidateId || undefined,
    statuses,
    updatedSince: filters.updatedSince?.toISOString(),
    sources,
    appliedFrom: filters.appliedFrom?.toISOString(),
    appliedTo: filters.appliedTo?.toISOString(),
    q: filters.q,
    afterKey: page.after?.[0],
    afterId: page.after?.[1],
    limit: page.limit,
    offset: page.offset,
  });
  // Planned once only where the best plan is the same whatever the values: not for a deep page
  // (the day it starts from) nor for filters (how common their values are).
  const planOnce = kept && !shape.statuses && !shape.deep;
  const found = await queryStatement<unknown[]>(db, statement.text, statement.values, { planOnce, arrays: true });
  const total = found[0][0] as number;
  // Past the end, the total's row alone (no application: a null id).
  if (found[0][APPLICATION_AT.id] === null) return { rows: [], total };
  return { rows: found.map(pageRowOf), total };
}

/** The submission (no fromStatus) sorts before the moves of the same millisecond. */
const historyIsMove = sql`(${applicationStatusHistory.fromStatus} is not null)`;

export async function listStatusHistory(
  db: Db,
  companyId: string,
  applicationId: string,
  page: PagePosition,
): Promise<{ rows: StatusHistoryRow[]; total: number }> {
  // Newest first; a move made in the same millisecond as the submission still sorts after it.
  const sortKeys = [applicationStatusHistory.changedAt, historyIsMove, applicationStatusHistory.id];
  const where = and(eq(applicationStatusHistory.companyId, companyId), eq(applicationStatusHistory.applicationId, applicationId));
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(applicationStatusHistory)
      .where(and(where, keysetAfter(sortKeys, page)))
      .orderBy(...keysetOrderBy(sortKeys, page))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(applicationStatusHistory).where(where),
  ]);
  return { rows, total };
}

/** Whose stage moves the activity timeline shows: one application's, or all of one candidate's applications'. */
export type StageMovesOf = { applicationId: string } | { candidateId: string };

function stageMovesWhere(companyId: string, of: StageMovesOf): SQL | undefined {
  const scope =
    'applicationId' in of
      ? eq(applicationStatusHistory.applicationId, of.applicationId)
      : inArray(
          applicationStatusHistory.applicationId,
          sql`(select ${applications.id} from ${applications} where ${applications.companyId} = ${companyId} and ${applications.candidateId} = ${of.candidateId})`,
        );
  return and(eq(applicationStatusHistory.companyId, companyId), scope);
}

export type StageMoveRow = StatusHistoryRow & { jobListingId: string; source: string };

/** History rows with their application's listing and source, newest first by (changedAt, id), within the window. */
export async function listStageMoves(db: Db, companyId: string, of: StageMovesOf, window: NewestFirstWindow): Promise<StageMoveRow[]> {
  return db
    .select({ ...getTableColumns(applicationStatusHistory), jobListingId: applications.jobListingId, source: applications.source })
    .from(applicationStatusHistory)
    .innerJoin(applications, eq(applications.id, applicationStatusHistory.applicationId))
    .where(and(stageMovesWhere(companyId, of), keysetBefore(applicationStatusHistory.changedAt, applicationStatusHistory.id, window.before)))
    .orderBy(desc(applicationStatusHistory.changedAt), desc(applicationStatusHistory.id))
    .limit(window.limit);
}

export async function countStageMoves(db: Db, companyId: string, of: StageMovesOf): Promise<number> {
  const [{ total }] = await db.select({ total: count() }).from(applicationStatusHistory).where(stageMovesWhere(companyId, of));
  return total;
}

export async function listApplicationsOfCandidate(db: Db, companyId: string, candidateId: string): Promise<ApplicationRow[]> {
  return db
    .select()
    .from(applications)
    .where(and(eq(applications.companyId, companyId), eq(applications.candidateId, candidateId)))
    .orderBy(desc(applications.appliedAt), desc(applications.id));
}

/** Erasure: empties the free texts a person wrote or that were written about them; answers the application ids. */
export async function clearPersonalTexts(db: Db, companyId: string, candidateId: string, now: Date): Promise<string[]> {
  const rows = await db
    .update(applications)
    .set({ coverLetter: null, updatedAt: now })
    .where(and(eq(applications.companyId, companyId), eq(applications.candidateId, candidateId)))
    .returning({ id: applications.id });
  const ids = rows.map((row) => row.id);
  if (ids.length > 0) {
    await db
      .update(applicationStatusHistory)
      .set({ reason: null })
      .where(and(eq(applicationStatusHistory.companyId, companyId), inArray(applicationStatusHistory.applicationId, ids)));
  }
  return ids;
}

/**
 * Deletes for good the company's applications in these listings or of these candidates (their
 * histories, and notes about them, by the schema's cascades; the kept counts by the delete
 * trigger); answers their ids.
 */
export async function deleteApplicationRows(db: Db, companyId: string, of: { jobListingIds: string[]; candidateIds: string[] }): Promise<string[]> {
  const ofThese = [
    ...(of.jobListingIds.length > 0 ? [inArray(applications.jobListingId, of.jobListingIds)] : []),
    ...(of.candidateIds.length > 0 ? [inArray(applications.candidateId, of.candidateIds)] : []),
  ];
  if (ofThese.length === 0) return [];
  const rows = await db
    .delete(applications)
    .where(and(eq(applications.companyId, companyId), or(...ofThese)))
    .returning({ id: applications.id });
  return rows.map((row) => row.id);
}

/** Every history row of these applications, oldest first. */
export async function listHistoryOfApplications(db: Db, companyId: string, applicationIds: string[]): Promise<StatusHistoryRow[]> {
  if (applicationIds.length === 0) return [];
  return db
    .select()
    .from(applicationStatusHistory)
    .where(and(eq(applicationStatusHistory.companyId, companyId), inArray(applicationStatusHistory.applicationId, applicationIds)))
    .orderBy(applicationStatusHistory.changedAt, applicationStatusHistory.id);
}
