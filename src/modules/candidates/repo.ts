import { and, eq, getTableColumns, inArray, isNull, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { flagsKey, PageStatements, placeholderOf } from '../../db/page-statements.ts';
import { queryRows, queryStatement, type Db } from '../../db/client.ts';
import { CHANGED_SINCE, NEWEST_FIRST, type Ordering, type PagePosition } from '../../shared/pagination.ts';
import { keptCountQuery } from '../../infra/kept-counts/read.ts';
import type { KnownTotal } from './search-totals.ts';
import { candidates, candidateSummariesView } from './tables.ts';

/**
 * Every column a reader gets: all of the table's but the search vector and the files' words (no
 * reader needs them; the words may be a résumé's thousands) and the erasure mark (readers see only
 * rows without it). Taken from the table, so a column added there is read by every statement here.
 */
const { searchVector: _searchVector, fileWords: _fileWords, erasedAt: _erasedAt, ...candidateColumns } = getTableColumns(candidates);

export type CandidateRow = Omit<typeof candidates.$inferSelect, 'searchVector' | 'fileWords' | 'erasedAt'>;

/**
 * The company's candidate, unless erased. `lock: 'update'` locks the row for an erasure; `'share'`
 * keeps an erasure out until the caller commits (and waits for one under way, then reads the row as
 * it left it: erased, so undefined).
 */
export async function findCandidate(
  db: Db,
  companyId: string,
  id: string,
  options: { lock?: 'update' | 'share' } = {},
): Promise<CandidateRow | undefined> {
  const query = db
    .select(candidateColumns)
    .from(candidates)
    .where(and(eq(candidates.companyId, companyId), eq(candidates.id, id), isNull(candidates.erasedAt)))
    .limit(1);
  const [row] = options.lock ? await query.for(options.lock) : await query;
  return row;
}

/** Overwrites the person's fields and marks the row erased. */
export async function anonymizeCandidateRow(
  db: Db,
  id: string,
  fields: Pick<CandidateRow, 'firstName' | 'lastName' | 'email' | 'phone' | 'headline' | 'location' | 'skills' | 'links'>,
  now: Date,
): Promise<void> {
  await db
    .update(candidates)
    .set({ ...fields, fileWords: sql`''::tsvector`, updatedAt: now, erasedAt: now })
    .where(eq(candidates.id, id));
}

/**
 * Locks the candidate's row (erased or not) for a change of their files' words, before the files'
 * rows: the order an erasure takes them in (candidate, then files), so the two never deadlock.
 */
export async function lockForFileWords(db: Db, companyId: string, id: string): Promise<void> {
  await queryRows(db, sql`select id from candidates where company_id = ${companyId} and id = ${id} for no key update`);
}

/**
 * At most this many characters of a candidate's files are read for their words (newest files
 * first): a tsvector holds at most 1 MB, and five résumés at the documents module's 200,000
 * characters each fit.
 */
const FILE_WORDS_MAX_CHARS = 1_000_000;

/**
 * Takes the words of the candidate's files again from the documents module's view
 * candidate_file_texts, stripped of positions (each weighs D in ts_rank and counts once). The
 * caller holds the row's lock (lockForFileWords) since before the files changed, so this statement
 * reads every change committed before it. An erased candidate keeps none.
 */
export async function refreshFileWords(db: Db, companyId: string, id: string): Promise<void> {
  await db.execute(sql`update candidates set file_words = coalesce((
      select strip(to_tsvector('simple'::regconfig, left(string_agg(text, ' ' order by created_at desc), ${FILE_WORDS_MAX_CHARS})))
      from candidate_file_texts where company_id = ${companyId} and candidate_id = ${id}), ''::tsvector)
    where company_id = ${companyId} and id = ${id} and erased_at is null`);
}

export async function findCandidatesByIds(db: Db, companyId: string, ids: string[]): Promise<CandidateRow[]> {
  if (ids.length === 0) return [];
  return db
    .select(candidateColumns)
    .from(candidates)
    .where(and(eq(candidates.companyId, companyId), inArray(candidates.id, ids)));
}

/** The summaries (candidate_summaries) of the company's candidates with these ids, erased ones included. */
export async function findCandidateSummaries(db: Db, companyId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(candidateSummariesView)
    .where(and(eq(candidateSummariesView.companyId, companyId), inArray(candidateSummariesView.id, ids)));
}

export async function findCandidateByEmail(db: Db, companyId: string, email: string): Promise<CandidateRow | undefined> {
  const [row] = await db
    .select(candidateColumns)
    .from(candidates)
    .where(and(eq(candidates.companyId, companyId), sql`lower(${candidates.email}) = lower(${email})`))
    .limit(1);
  return row;
}

/** Which of these e-mail addresses (compared without letter case) the company's candidates have. */
export async function findTakenEmails(db: Db, companyId: string, emails: string[]): Promise<string[]> {
  if (emails.length === 0) return [];
  const rows = await db
    .select({ email: candidates.email })
    .from(candidates)
    .where(and(eq(candidates.companyId, companyId), inArray(sql`lower(${candidates.email})`, emails.map((email) => email.toLowerCase()))));
  return rows.map((row) => row.email);
}

/** Deletes the company's candidates with these ids for good (the kept counts and search totals by the delete triggers); answers how many. */
export async function deleteCandidateRows(db: Db, companyId: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await db.delete(candidates).where(and(eq(candidates.companyId, companyId), inArray(candidates.id, ids))).returning({ id: candidates.id });
  return rows.length;
}

/** Inserts unless a candidate with this email exists (a concurrent insert included); undefined then. */
export async function insertCandidateIfAbsent(db: Db, row: CandidateRow): Promise<CandidateRow | undefined> {
  const [inserted] = await db.insert(candidates).values(row).onConflictDoNothing().returning(candidateColumns);
  return inserted;
}

/**
 * The search text as a prefix query, from the text `q`: the words of `q`, split by the same parser
 * that built the vector (so an email or "node.js" stays one token), each matching a word or its
 * start, all required. Built by casting a quoted literal, so no character of q is tsquery syntax.
 */
export function prefixQuery(q: Placeholder | SQL): SQL {
  return sql`(select string_agg('''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || ''':*', ' & ')
    from unnest(to_tsvector('simple'::regconfig, ${q}::text)))::tsquery`;
}

/**
 * How many of a search's matches are ranked: the newest this many, by relevance; the older ones
 * follow, newest first (docs/decisions.md, "Candidate search: relevance among the newest 500
 * matches").
 */
const RANKED_MATCHES = 500;

export interface CandidateFilters {
  q?: string | undefined;
  updatedSince?: Date | undefined;
}

/** candidateColumns as the select list of the table aliased `c`, each column named by its key. */
const COLUMNS = sql.join(
  Object.entries(candidateColumns).map(([key, column]) => sql`c.${sql.identifier(column.name)} as ${sql.identifier(key)}`),
  sql`, `,
);

/** With `q`: (rank, createdAt, id) descending, most relevant first. */
export const BY_RELEVANCE: Ordering = { name: 'relevance', keys: ['real', 'timestamptz', 'uuid'], direction: 'desc' };

/** The orderings of the page, and the columns (keys of candidateColumns, or the rank) each sorts by. */
const ORDERINGS = [
  { ordering: NEWEST_FIRST, keys: ['createdAt', 'id'] },
  { ordering: BY_RELEVANCE, keys: ['rank', 'createdAt', 'id'] },
  { ordering: CHANGED_SINCE, keys: ['updatedAt', 'id'] },
] as const satisfies ReadonlyArray<{ ordering: Ordering; keys: ReadonlyArray<keyof typeof candidateColumns | 'rank'> }>;

/** The values a page statement binds by name when it runs (`after0`.. the cursor's keys). */
interface PageValues {
  companyId: string;
  limit: number;
  offset: number;
  q: string | undefined;
  updatedSince: string | undefined;
  after0: unknown;
  after1: unknown;
  after2: unknown;
  /** A search's total counted before, and the company's search generation then (relevancePage). */
  knownGeneration: number | undefined;
  knownTotal: number | undefined;
}
const value = placeholderOf<PageValues>();

/**
 * The page of a search by relevance (`q` without updatedSince). Its order is (rank, createdAt, id)
 * descending, where rank is ts_rank for the newest RANKED_MATCHES matches and 0 for the older
 * ones: the newest matches by relevance, then the rest newest first. So a first page costs the
 * newest RANKED_MATCHES matches, not every match. The total is every match, counted from the
 * search index (`q.query` is the search's tsquery, computed once), unless the caller passes a total
 * it kept (search-totals.ts) and the company's search generation is still the one it was counted
 * at; the statement answers the generation it read either way.
 *
 * The newest matches are found one of two ways, whichever reads fewer rows, chosen by the match
 * count just made (a plan made once cannot choose: it does not know the words): a common word by
 * walking the company's newest-first index and testing each row (about RANKED_MATCHES / the
 * word's share of the company's candidates rows; `ts_match_vq` is `@@` in a form the search index
 * does not take, so this way never reads that index), a rarer one by reading all its matches from
 * the search index and keeping the newest. Walking reads fewer rows when matches^2 >
 * RANKED_MATCHES * candidates. The older matches are read, walking down from the oldest ranked
 * one, only when the page reaches past the ranked ones.
 */
function relevancePage(after: boolean, page: (total: SQL, generation?: SQL) => SQL): SQL {
  const cursor = sql`(${value('after0')}::real, ${value('after1')}::timestamptz, ${value('after2')}::uuid)`;
  const wanted = sql`${value('limit')}::int + ${value('offset')}::int`;
  const company = sql`company_id = ${value('companyId')} and erased_at is null`;
  // Where the older matches start: below the oldest ranked one, or below the cursor once it is there.
  const tailStart = after
    ? sql`(case when ${value('after0')}::real = 0 then ${value('after1')}::timestamptz else (select created_at from oldest) end,
           case when ${value('after0')}::real = 0 then ${value('after2')}::uuid else (select id from oldest) end)`
    : sql`((select created_at from oldest), (select id from oldest))`;
  const rankedAfter = after ? sql`where (rank, created_at, id) < ${cursor}` : sql``;
  const walk = sql`(select n from total)::bigint * (select n from total) > ${sql.raw(String(RANKED_MATCHES))}::bigint * (select ${keptCountQuery(value('companyId'), 'candidates')})`;
  const newest = sql`order by created_at desc, id desc limit ${sql.raw(String(RANKED_MATCHES))}`;
  // The total: the one counted before (knownTotal) while the company's search generation is the
  // same as then, else counted now (the count runs only when reached: a lazy subquery).
  return sql`with q as materialized (select ${prefixQuery(value('q'))} as query),
    generation as materialized (select ${keptCountQuery(value('companyId'), 'candidate_search_changes')} as g),
    total as materialized (select case when (select g from generation) = ${value('knownGeneration')}::int then ${value('knownTotal')}::int
      else (select count(*)::int from candidates where ${company} and search_vector @@ (select query from q)) end as n),
    ranked as materialized (
      (select id, created_at, updated_at, ts_rank(search_vector, (select query from q)) as rank from candidates
        where ${company} and search_vector @@ (select query from q) and not ${walk} ${newest})
      union all
      (select id, created_at, updated_at, ts_rank(search_vector, (select query from q)) as rank from candidates
        where ${company} and ts_match_vq(search_vector, (select query from q)) and ${walk} ${newest})
    ),
    oldest as (select created_at, id from ranked order by created_at, id limit 1),
    matches as (
      (select id, created_at, updated_at, rank from ranked ${rankedAfter})
      union all
      (select id, created_at, updated_at, 0::real as rank from candidates
        where ${company} and ts_match_vq(search_vector, (select query from q)) and (created_at, id) < ${tailStart}
          and (select n from total) > ${sql.raw(String(RANKED_MATCHES))}
          and (select count(*) from ranked ${rankedAfter}) < ${wanted}
        order by created_at desc, id desc limit ${wanted})
    )
    ${page(sql`(select n from total)`, sql`(select g from generation)`)}`;
}

/**
 * The candidates page, for every filter and ordering, as one statement: one round trip, one
 * snapshot, one fixed text per shape (which filters, ordering, cursor or not) that PostgreSQL
 * prepares once; the total comes as a row of its own, so a page past the end still has it. Built
 * once per shape, its values bound by name when it runs.
 * - Unfiltered: the page read in index order, the total the kept count.
 * - Searched (q): the newest matches ranked, the older ones after them (relevancePage), the total
 *   counted from the search index or kept from before at the same generation; then only the
 *   page's rows read in full.
 * - Changed since (updatedSince, with or without q): the matches found once, counted and ordered
 *   from the same set, then only the page's rows read in full.
 */
/** Which filters a page has, its ordering, and whether it starts after a cursor. */
const PAGE_FLAGS = ['q', 'updatedSince', 'after'] as const;
type PageShape = Record<(typeof PAGE_FLAGS)[number], boolean> & { ordering: Ordering };

function pageStatement(shape: PageShape): SQL {
  const { ordering, after } = shape;
  const sort = ORDERINGS.find((candidate) => candidate.ordering === ordering)!;
  const filters = shape;
  const q = filters.q ? value('q') : undefined;
  const since = filters.updatedSince ? sql`${value('updatedSince')}::timestamptz` : undefined;
  const keys = {
    columns: sort.keys.map((key) => (key === 'rank' ? key : candidateColumns[key].name)),
    names: sort.keys.map((key) => `"${key}"`),
  };
  const afterKeys = ['after0', 'after1', 'after2'] as const;
  const cursor = sql.join(ordering.keys.map((type, i) => sql`${value(afterKeys[i])}::${sql.raw(type)}`), sql`, `);
  const op = ordering.direction === 'asc' ? '>' : '<';
  const keyset = (prefix: string) =>
    after ? sql`and (${sql.raw(keys.columns.map((key) => prefix + key).join(', '))}) ${sql.raw(op)} (${cursor})` : sql``;
  const orderBy = (names: string[], prefix: string) => sql.raw(names.map((name) => `${prefix}${name} ${ordering.direction}`).join(', '));
  const limit = sql`limit ${value('limit')} offset ${value('offset')}`;

  const page = (source: SQL, generation: SQL = sql`null::int`) => sql`select t.total, t.generation, p.* from (select ${source} as total, ${generation} as generation) t
    left join lateral (
      select ${COLUMNS}, m.rank::float8 as rank from (
        select id, rank, created_at, updated_at from matches where true ${keyset('')}
        order by ${orderBy(keys.columns, '')} ${limit}
      ) m join candidates c on c.id = m.id
    ) p on true
    order by ${orderBy(keys.names, 'p.')}`;

  return !q && !since
      ? sql`select t.total, null::int as generation, p.* from (select ${keptCountQuery(value('companyId'), 'candidates')} as total) t
      left join lateral (select ${COLUMNS}, 0::float8 as rank from candidates c
        where c.company_id = ${value('companyId')} and c.erased_at is null ${keyset('c.')}
        order by ${orderBy(keys.columns, 'c.')} ${limit}) p on true
      order by ${orderBy(keys.names, 'p.')}`
      : q && !since
        ? relevancePage(after, page)
        : sql`with matches as materialized (
      select id, created_at, updated_at, 0::real as rank
      from candidates${q ? sql`, (select ${prefixQuery(q)} as query) q` : sql``}
      where company_id = ${value('companyId')} and erased_at is null and updated_at >= ${since}${q ? sql` and search_vector @@ q.query` : sql``}
    )
    ${page(sql`(select count(*)::int from matches)`)}`;
}

const flags = flagsKey(PAGE_FLAGS);
const PAGE_STATEMENTS = new PageStatements<PageShape, PageValues>(
  (shape) => `${shape.ordering.name}:${flags(shape)}`,
  pageStatement,
);

/**
 * Where each column is in a page statement's row read by index: the total, the search's
 * generation, candidateColumns' in their order (COLUMNS), then the rank.
 */
const PAGE_AT = Object.fromEntries(Object.keys(candidateColumns).map((key, i) => [key, i + 2])) as Record<keyof CandidateRow, number>;
const RANK_AT = Object.keys(candidateColumns).length + 2;

/**
 * A page statement's row as one literal, typed against tables.ts (a column added to the table
 * fails to compile here until it is read). pg's row objects stored every column by its name at one
 * site shared by every statement: ~90,000 instructions of a 20-row page (callgrind).
 */
function pageRowOf(values: unknown[]): CandidateRow & { rank: number } {
  // Each index read by its name from PAGE_AT (one load site per column): through a function taking
  // the key, one site read every key, a megamorphic load per column (~30,000 instructions a page).
  const at = PAGE_AT;
  return {
    id: values[at.id] as CandidateRow['id'],
    companyId: values[at.companyId] as CandidateRow['companyId'],
    firstName: values[at.firstName] as CandidateRow['firstName'],
    lastName: values[at.lastName] as CandidateRow['lastName'],
    email: values[at.email] as CandidateRow['email'],
    phone: values[at.phone] as CandidateRow['phone'],
    headline: values[at.headline] as CandidateRow['headline'],
    location: values[at.location] as CandidateRow['location'],
    skills: values[at.skills] as CandidateRow['skills'],
    links: values[at.links] as CandidateRow['links'],
    source: values[at.source] as CandidateRow['source'],
    createdAt: values[at.createdAt] as CandidateRow['createdAt'],
    updatedAt: values[at.updatedAt] as CandidateRow['updatedAt'],
    rank: values[RANK_AT] as number,
  };
}

/**
 * `page.ordering` decides the order: newest first, by relevance with `q` ('relevance': rank, then
 * newest), or (updatedAt, id) ascending with updatedSince. Each row answers its rank (0 without q).
 */
export async function listCandidates(
  db: Db,
  companyId: string,
  filters: CandidateFilters,
  page: PagePosition,
  known?: KnownTotal,
): Promise<{ rows: Array<CandidateRow & { rank: number }>; total: number; generation: number | null }> {
  const shape = { q: filters.q !== undefined, updatedSince: filters.updatedSince !== undefined, after: page.after !== undefined, ordering: page.ordering };
  const statement = PAGE_STATEMENTS.bind(shape, {
    companyId,
    limit: page.limit,
    offset: page.offset,
    q: filters.q,
    updatedSince: filters.updatedSince?.toISOString(),
    after0: page.after?.[0],
    after1: page.after?.[1],
    after2: page.after?.[2],
    knownGeneration: known?.generation,
    knownTotal: known?.total,
  });
  const found = await queryStatement<unknown[]>(db, statement.text, statement.values, {
    // Newest first and the search are planned once: the same index walk whatever the company or
    // page; the search's one index answers company and words together (migration 0022), and the
    // search chooses how to find its newest matches itself (relevancePage). How many rows changed
    // since a time depends on the time: PostgreSQL plans those with their values.
    planOnce: !shape.updatedSince,
    arrays: true,
  });
  const [total, generation] = found[0] as [number, number | null];
  // Past the end, the total's row alone (no candidate: a null id).
  return { rows: found[0][PAGE_AT.id] === null ? [] : found.map(pageRowOf), total, generation };
}

/** What an import gives for a candidate; null optional fields keep a known candidate's stored value. */
export type CandidateUpsert = Pick<CandidateRow, 'id' | 'firstName' | 'lastName' | 'email' | 'phone' | 'headline' | 'location'> & {
  skills: string[] | null;
  links: string[] | null;
};

/** The fields of an imported row, as the statement reads them from the JSON (`r`), typed as their columns. */
const IMPORTED_FIELDS = ['id', 'firstName', 'lastName', 'email', 'phone', 'headline', 'location', 'skills', 'links'] as const satisfies ReadonlyArray<
  keyof CandidateUpsert
>;

/**
 * What an import writes in each column of the table (all but the erasure mark: an import never
 * erases; and the files' words, which only refreshFileWords writes), by the table's keys: a column
 * added to the table fails to compile here until the import says what it writes. `value`: a new row's (SQL over `r`, the imported row); `onMatch`:
 * what the row of a known email stores (SQL over `excluded`, the values given, and `c`, the stored
 * row); none: it keeps its value.
 */
function importWrites(
  companyId: string,
  source: string,
  at: string,
): Record<Exclude<keyof typeof candidates.$inferInsert, 'erasedAt' | 'fileWords'>, { value: SQL; onMatch?: SQL }> {
  return {
    id: { value: sql`r.id` },
    companyId: { value: sql`${companyId}::uuid` },
    firstName: { value: sql`r.first_name`, onMatch: sql`excluded.first_name` },
    lastName: { value: sql`r.last_name`, onMatch: sql`excluded.last_name` },
    email: { value: sql`r.email`, onMatch: sql`excluded.email` },
    phone: { value: sql`r.phone`, onMatch: sql`coalesce(excluded.phone, c.phone)` },
    headline: { value: sql`r.headline`, onMatch: sql`coalesce(excluded.headline, c.headline)` },
    location: { value: sql`r.location`, onMatch: sql`coalesce(excluded.location, c.location)` },
    // '{}' when the row had none: a known candidate keeps the stored ones then.
    skills: { value: sql`coalesce(r.skills, '{}')`, onMatch: sql`case when cardinality(excluded.skills) > 0 then excluded.skills else c.skills end` },
    links: { value: sql`coalesce(r.links, '{}')`, onMatch: sql`case when cardinality(excluded.links) > 0 then excluded.links else c.links end` },
    source: { value: sql`${source}` },
    createdAt: { value: sql`${at}::timestamptz` },
    updatedAt: { value: sql`${at}::timestamptz`, onMatch: sql`excluded.updated_at` },
  };
}

/**
 * Inserts or updates candidates by email (case-insensitive) in one statement, whatever the batch
 * size: the rows travel as one JSON parameter. On a match the given fields replace the stored
 * ones; optional fields left out (null) keep their stored value. Emails must be unique within the
 * batch (the service checks). Answers each row's id and whether it was inserted.
 */
export async function upsertCandidates(
  db: Db,
  companyId: string,
  rows: CandidateUpsert[],
  source: string,
  now: Date,
): Promise<Array<{ id: string; email: string; inserted: boolean }>> {
  if (rows.length === 0) return [];
  const writes = Object.entries(importWrites(companyId, source, now.toISOString())).map(([key, write]) => ({
    column: sql.raw(candidates[key as keyof typeof candidates.$inferInsert].name),
    ...write,
  }));
  const fields = IMPORTED_FIELDS.map((key) => sql.raw(`${candidates[key].name} ${candidates[key].getSQLType()}`));
  const records = rows.map((row, ord) => ({ ...Object.fromEntries(IMPORTED_FIELDS.map((key) => [candidates[key].name, row[key]])), ord }));
  return queryRows<{ id: string; email: string; inserted: boolean }>(
    db,
    sql`
      insert into candidates as c (${sql.join(writes.map((write) => write.column), sql`, `)})
      select ${sql.join(writes.map((write) => write.value), sql`, `)}
      from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as r(${sql.join(fields, sql`, `)}, ord int)
      -- One order for every import (the normalized e-mail, as the unique index compares it): two
      -- overlapping imports then take their row locks in the same sequence and never deadlock.
      order by lower(r.email), r.ord
      on conflict (company_id, lower(email)) do update set
        ${sql.join(
          writes.flatMap((write) => (write.onMatch ? [sql`${write.column} = ${write.onMatch}`] : [])),
          sql`, `,
        )}
      -- xmax is 0 on a row version this statement inserted, and set on one it updated.
      returning c.id, c.email, (c.xmax = 0) as inserted`,
  );
}
