import { and, count, eq, gte, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { queryRows, queryStatement, type Db } from '../../db/client.ts';
import { keysetAfter, keysetOrderBy } from '../../db/keyset.ts';
import type { PagePosition } from '../../shared/pagination.ts';
import { keptCount } from '../../infra/kept-counts/read.ts';
import { candidates } from './tables.ts';

export type CandidateRow = Omit<typeof candidates.$inferSelect, 'searchVector' | 'erasedAt'>;

/** Every column but the search vector, which no reader needs. */
const candidateColumns = {
  id: candidates.id,
  companyId: candidates.companyId,
  firstName: candidates.firstName,
  lastName: candidates.lastName,
  email: candidates.email,
  phone: candidates.phone,
  headline: candidates.headline,
  location: candidates.location,
  skills: candidates.skills,
  links: candidates.links,
  source: candidates.source,
  createdAt: candidates.createdAt,
  updatedAt: candidates.updatedAt,
};

/** The company's candidate, unless erased. `lock: 'update'` locks the row for an erasure. */
export async function findCandidate(
  db: Db,
  companyId: string,
  id: string,
  options: { lock?: 'update' } = {},
): Promise<CandidateRow | undefined> {
  const query = db
    .select(candidateColumns)
    .from(candidates)
    .where(and(eq(candidates.companyId, companyId), eq(candidates.id, id), isNull(candidates.erasedAt)))
    .limit(1);
  const [row] = options.lock === 'update' ? await query.for('update') : await query;
  return row;
}

/** Overwrites the person's fields and marks the row erased. */
export async function anonymizeCandidateRow(
  db: Db,
  id: string,
  fields: Pick<CandidateRow, 'firstName' | 'lastName' | 'email' | 'phone' | 'headline' | 'location' | 'skills' | 'links'>,
  now: Date,
): Promise<void> {
  await db.update(candidates).set({ ...fields, updatedAt: now, erasedAt: now }).where(eq(candidates.id, id));
}

export async function findCandidatesByIds(db: Db, companyId: string, ids: string[]): Promise<CandidateRow[]> {
  if (ids.length === 0) return [];
  return db
    .select(candidateColumns)
    .from(candidates)
    .where(and(eq(candidates.companyId, companyId), inArray(candidates.id, ids)));
}

export async function findCandidateByEmail(db: Db, companyId: string, email: string): Promise<CandidateRow | undefined> {
  const [row] = await db
    .select(candidateColumns)
    .from(candidates)
    .where(and(eq(candidates.companyId, companyId), sql`lower(${candidates.email}) = lower(${email})`))
    .limit(1);
  return row;
}

/** Inserts unless a candidate with this email exists (a concurrent insert included); undefined then. */
export async function insertCandidateIfAbsent(db: Db, row: CandidateRow): Promise<CandidateRow | undefined> {
  const [inserted] = await db.insert(candidates).values(row).onConflictDoNothing().returning(candidateColumns);
  return inserted;
}

/**
 * The search text as a prefix query: the words of `q`, split by the same parser that built the
 * vector (so an email or "node.js" stays one token), each matching a word or its start, all
 * required. Built by casting a quoted literal, so no character of q is tsquery syntax.
 */
function prefixQuery(q: string): SQL {
  return sql`(select string_agg('''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || ''':*', ' & ')
    from unnest(to_tsvector('simple'::regconfig, ${q})))::tsquery`;
}

export interface CandidateFilters {
  q?: string | undefined;
  updatedSince?: Date | undefined;
}

/** candidateColumns as SQL, each column of the table aliased `c`. */
const COLUMNS = `c.id, c.company_id as "companyId", c.first_name as "firstName", c.last_name as "lastName", c.email, c.phone,
  c.headline, c.location, c.skills, c.links, c.source, c.created_at as "createdAt", c.updated_at as "updatedAt"`;

/** The search text as prefixQuery makes it, for the one-statement search below ($2). */
const PREFIX_QUERY = `(select string_agg('''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || ''':*', ' & ')
  from unnest(to_tsvector('simple'::regconfig, $2::text)))::tsquery`;

/**
 * The hot list shapes in one statement each (one round trip, one snapshot, a fixed text that
 * PostgreSQL prepares once), the total as a row of its own so a page past the end still has it:
 * - newest first: the page and the kept count ($1 company, $2 limit, $3 offset, then the cursor);
 * - a search (`q`): the matches found once, counted and ranked from the same set
 *   ($1 company, $2 q, $3 limit, $4 offset, then the cursor).
 */
function newestPageStatement(keyset: boolean): string {
  return `select t.total, p.* from
    (select coalesce(sum(n), 0)::int as total from company_counts where company_id = $1 and resource = 'candidates') t
    left join lateral (select ${COLUMNS}, 0::float8 as rank from candidates c
      where c.company_id = $1 and c.erased_at is null ${keyset ? 'and (c.created_at, c.id) < ($4::timestamptz, $5::uuid)' : ''}
      order by c.created_at desc, c.id desc limit $2 offset $3) p on true
    order by p."createdAt" desc, p.id desc`;
}

function searchStatement(keyset: boolean): string {
  return `with matches as materialized (
      select id, created_at, ts_rank(search_vector, q.query) as rank
      from candidates, (select ${PREFIX_QUERY} as query) q
      where company_id = $1 and erased_at is null and search_vector @@ q.query
    )
    select t.total, p.* from (select count(*)::int as total from matches) t
    left join lateral (
      select ${COLUMNS}, m.rank::float8 as rank from (
        select id, rank from matches
        ${keyset ? 'where (rank, created_at, id) < ($5::real, $6::timestamptz, $7::uuid)' : ''}
        order by rank desc, created_at desc, id desc limit $3 offset $4
      ) m join candidates c on c.id = m.id
    ) p on true
    order by p.rank desc, p."createdAt" desc, p.id desc`;
}

const STATEMENTS = {
  newest: [newestPageStatement(false), newestPageStatement(true)],
  search: [searchStatement(false), searchStatement(true)],
};

/**
 * `page.ordering` decides the order: newest first, by relevance with `q` ('relevance': rank, then
 * newest), or (updatedAt, id) ascending with updatedSince. Each row answers its rank (0 without q).
 */
export async function listCandidates(
  db: Db,
  companyId: string,
  filters: CandidateFilters,
  page: PagePosition,
): Promise<{ rows: Array<CandidateRow & { rank: number }>; total: number }> {
  if (!filters.updatedSince && !page.ordering.sync) {
    const search = filters.q !== undefined;
    const values: unknown[] = search ? [companyId, filters.q, page.limit, page.offset] : [companyId, page.limit, page.offset];
    if (page.after) values.push(...page.after);
    const found = await queryStatement<CandidateRow & { rank: number; total: number; id: string | null }>(
      db,
      STATEMENTS[search ? 'search' : 'newest'][Number(Boolean(page.after))],
      values,
      // Planned once, the search too: its one index answers company and words together
      // (migration 0022), whatever either is.
      { planOnce: true },
    );
    if (found[0].id === null) return { rows: [], total: found[0].total };
    // The rows as read, their `total` column left on them (no reader looks at it): a copy of each
    // row without it cost a page ~9 us and its garbage.
    return { rows: found as Array<CandidateRow & { rank: number }>, total: found[0].total };
  }
  const conditions: SQL[] = [eq(candidates.companyId, companyId), isNull(candidates.erasedAt)];
  if (filters.updatedSince) conditions.push(gte(candidates.updatedAt, filters.updatedSince));
  const query = filters.q === undefined ? undefined : prefixQuery(filters.q);
  if (query) conditions.push(sql`${candidates.searchVector} @@ ${query}`);
  const where = and(...conditions);

  const rank = query ? sql<number>`ts_rank(${candidates.searchVector}, ${query})` : sql<number>`0::real`;
  const sortKeys = page.ordering.sync
    ? [candidates.updatedAt, candidates.id]
    : page.ordering.name === 'relevance'
      ? [rank, candidates.createdAt, candidates.id]
      : [candidates.createdAt, candidates.id];

  const [rows, total] = await Promise.all([
    db
      .select({ ...candidateColumns, rank: sql<number>`(${rank})::float8`.mapWith(Number) })
      .from(candidates)
      .where(and(where, keysetAfter(sortKeys, page)))
      .orderBy(...keysetOrderBy(sortKeys, page))
      .limit(page.limit)
      .offset(page.offset),
    // Unfiltered: the kept count, never a count of rows.
    query || filters.updatedSince
      ? db
          .select({ total: count() })
          .from(candidates)
          .where(where)
          .then(([row]) => row.total)
      : keptCount(db, companyId, 'candidates'),
  ]);
  return { rows, total };
}

export interface CandidateUpsert {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  headline: string | null;
  location: string | null;
  skills: string[] | null;
  links: string[] | null;
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
  const at = now.toISOString();
  return queryRows<{ id: string; email: string; inserted: boolean }>(
    db,
    sql`
      insert into candidates as c
        (id, company_id, first_name, last_name, email, phone, headline, location, skills, links, source, created_at, updated_at)
      select r.id, ${companyId}::uuid, r.first_name, r.last_name, r.email, r.phone, r.headline, r.location,
             coalesce(r.skills, '{}'), coalesce(r.links, '{}'), ${source}, ${at}::timestamptz, ${at}::timestamptz
      from jsonb_to_recordset(${JSON.stringify(rows.map(toRecord))}::jsonb) as r(
        id uuid, first_name text, last_name text, email text, phone text, headline text, location text,
        skills text[], links text[], ord int)
      -- One order for every import (the normalized e-mail, as the unique index compares it): two
      -- overlapping imports then take their row locks in the same sequence and never deadlock.
      order by lower(r.email), r.ord
      on conflict (company_id, lower(email)) do update set
        first_name = excluded.first_name,
        last_name = excluded.last_name,
        email = excluded.email,
        phone = coalesce(excluded.phone, c.phone),
        headline = coalesce(excluded.headline, c.headline),
        location = coalesce(excluded.location, c.location),
        -- excluded.skills is '{}' when the row had none: keep the stored ones then.
        skills = case when cardinality(excluded.skills) > 0 then excluded.skills else c.skills end,
        links = case when cardinality(excluded.links) > 0 then excluded.links else c.links end,
        updated_at = excluded.updated_at
      -- xmax is 0 on a row version this statement inserted, and set on one it updated.
      returning c.id, c.email, (c.xmax = 0) as inserted`,
  );

  function toRecord(row: CandidateUpsert, ord: number) {
    return {
      id: row.id,
      first_name: row.firstName,
      last_name: row.lastName,
      email: row.email,
      phone: row.phone,
      headline: row.headline,
      location: row.location,
      skills: row.skills,
      links: row.links,
      ord,
    };
  }
}
