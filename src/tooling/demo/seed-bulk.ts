// A large synthetic data set for benchmarks (`npm run cli -- seed --listings N --candidates N
// --applications N`). Set-based SQL only: each table is filled by INSERT ... SELECT FROM
// generate_series, in chunks, so a million applications is a handful of statements that run in
// minutes on PGlite and PostgreSQL, with no rows travelling through Node.
//
// Everything is derived from the row number: ids are (run tag, kind, n) written as a uuid, so a
// statement can point at the rows of another (application n belongs to candidate n % C and to a
// listing chosen so no pair repeats) without reading them back. No outbox events are written:
// synthetic data must not fire a million webhooks.
import { randomBytes } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database, type Db } from '../../db/client.ts';
import type { Clock } from '../../shared/clock.ts';
import type { ServiceContext } from '../../shared/context.ts';
import { createCompany, getCompany } from '../../modules/companies/service.ts';
import { NotFoundError } from '../../shared/errors.ts';
import { APPLICATION_SOURCES } from '../../modules/applications/stages.ts';

export interface SeedBulkOptions {
  /** Seed into this company; by default a new "Benchmark company" is created. */
  companyId?: string | undefined;
  listings: number;
  candidates: number;
  applications: number;
  clock?: Clock;
  /** Called after each statement, for progress output. */
  onProgress?: (message: string) => void;
}

export interface SeedBulkResult {
  companyId: string;
  listings: number;
  candidates: number;
  applications: number;
  statusHistory: number;
}

export class SeedBulkError extends Error {}

const CHUNK = 250_000;
const MAX_ROWS = 50_000_000;

const FIRST_NAMES = [
  'Ada', 'Alan', 'Amara', 'Ana', 'Arjun', 'Beatriz', 'Carlos', 'Chen', 'Chloe', 'Daniel', 'Dmitri', 'Elena', 'Emma',
  'Fatima', 'Felix', 'Grace', 'Hana', 'Hugo', 'Ines', 'Ivan', 'Jamal', 'Julia', 'Kai', 'Kenji', 'Laila', 'Lars',
  'Leon', 'Lucia', 'Mateo', 'Maya', 'Mei', 'Nadia', 'Noah', 'Olga', 'Omar', 'Priya', 'Rafael', 'Sara', 'Tomas', 'Yuki',
];
const LAST_NAMES = [
  'Almeida', 'Andersen', 'Bauer', 'Becker', 'Chen', 'Costa', 'Dubois', 'Eriksen', 'Fischer', 'Garcia', 'Haddad',
  'Hansen', 'Ivanova', 'Jensen', 'Kato', 'Khan', 'Kowalski', 'Larsen', 'Lopez', 'Martin', 'Meyer', 'Moreau', 'Nakamura',
  'Novak', 'Okafor', 'Olsen', 'Patel', 'Petrov', 'Rossi', 'Santos', 'Schmidt', 'Silva', 'Singh', 'Suzuki', 'Tanaka',
  'Weber', 'Wagner', 'Yilmaz', 'Zhang', 'Zimmermann',
];
const POSITIONS = [
  'Backend Engineer', 'Frontend Engineer', 'Data Engineer', 'Data Analyst', 'Product Manager', 'Product Designer',
  'DevOps Engineer', 'QA Engineer', 'Sales Manager', 'Account Executive', 'Customer Success Manager',
  'Marketing Manager', 'Content Writer', 'HR Generalist', 'Recruiter', 'Financial Analyst', 'Accountant',
  'Office Manager', 'Support Specialist', 'Project Manager',
];
const LEVELS = ['Junior', '', 'Senior', 'Lead', 'Staff'];
const SKILLS = [
  'TypeScript', 'Python', 'Java', 'Go', 'SQL', 'PostgreSQL', 'React', 'Kubernetes', 'AWS', 'Figma', 'Excel',
  'Salesforce', 'SEO', 'Negotiation', 'Communication', 'Leadership', 'Scrum', 'Accounting', 'Recruiting', 'Writing',
];
const CITIES = ['Berlin, DE', 'Lisbon, PT', 'London, GB', 'Paris, FR', 'Madrid, ES', 'Warsaw, PL', 'Amsterdam, NL', 'Remote'];
const POSITION_TYPES = ['FULL_TIME', 'FULL_TIME', 'FULL_TIME', 'PART_TIME', 'CONTRACT', 'INTERNSHIP'];
const WORK_PLACE_TYPES = ['REMOTE', 'HYBRID', 'ON_SITE'];

function textArray(values: readonly string[]): SQL {
  return sql`${`{${values.map((value) => `"${value}"`).join(',')}}`}::text[]`;
}

/** Picks from a text[] by a non-negative integer expression. */
function pick(values: readonly string[], index: SQL): SQL {
  return sql`(${textArray(values)})[1 + ((${index}) % ${values.length})]`;
}

/** A cheap deterministic scramble of n into 0..modulo-1 (Knuth's multiplicative hash). */
function scramble(n: SQL, salt: number, modulo: number): SQL {
  return sql`(((${n})::bigint * 2654435761 + ${salt}) % 4294967296 % ${modulo})::int`;
}

const KIND_DIGIT = { L: 'b', C: 'c', A: 'a' } as const;

/**
 * The id of row n of a kind: the run tag (8 hex digits), a digit for the kind, then n in hex. Ids
 * of one run and kind ascend with n, so each insert appends to the right edge of the primary key
 * index instead of touching a random page of it (random UUIDs made a million-row load several
 * times slower once the index outgrew the buffer cache).
 */
function uuidFor(tag: string, kind: keyof typeof KIND_DIGIT, n: SQL): SQL {
  return sql`(${tag + KIND_DIGIT[kind]} || lpad(to_hex((${n})::bigint), 23, '0'))::uuid`;
}

function checkCount(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0 || value > MAX_ROWS) {
    throw new SeedBulkError(`--${name} must be an integer from 0 to ${MAX_ROWS} (got ${value})`);
  }
}

/**
 * The listing timeline as SQL of the listing number k (0-based), shared by the listing insert and
 * the application insert (which places each application inside its listing's open window).
 * Listings 0..open-1 received applications: most ACTIVE (published within the last 58 days, so
 * none is past its 60-day expiry), every 5th CLOSED and every 17th ARCHIVED (published 90 to 240
 * days ago, open for 20 to 60 days). The rest are DRAFTs.
 */
function listingTimeline(k: SQL, now: string) {
  const status = sql`case when (${k}) % 5 = 4 then 'CLOSED' when (${k}) % 17 = 16 then 'ARCHIVED' else 'ACTIVE' end`;
  const publishedAt = sql`case when ${status} = 'ACTIVE'
      then ${now}::timestamptz - make_interval(days => 1 + ${scramble(k, 11, 57)}, hours => ${scramble(k, 13, 24)})
      else ${now}::timestamptz - make_interval(days => 90 + ${scramble(k, 17, 150)}) end`;
  const closedAt = sql`case when ${status} = 'ACTIVE' then null else ${publishedAt} + make_interval(days => 20 + ${scramble(k, 19, 40)}) end`;
  return { status, publishedAt, closedAt };
}

/** `target`: the database (for ANALYZE) and the service context its companies are made with. */
export async function seedBulk(
  target: { database: Database; ctx: ServiceContext },
  options: SeedBulkOptions,
): Promise<SeedBulkResult> {
  const { database } = target;
  checkCount('listings', options.listings);
  checkCount('candidates', options.candidates);
  checkCount('applications', options.applications);
  const L = options.listings;
  const C = options.candidates;
  const A = options.applications;
  // A tenth of the listings are drafts, which take no applications; at least one is open.
  const open = L === 0 ? 0 : Math.max(1, L - Math.floor(L / 10));
  if (A > 0 && (C === 0 || open === 0)) {
    throw new SeedBulkError('--applications needs at least one listing and one candidate');
  }
  if (A > C * open) {
    throw new SeedBulkError(
      `--applications ${A} exceeds what ${C} candidates can make to ${open} open listings (one application per candidate and listing: at most ${C * open})`,
    );
  }
  const clock = options.clock ?? target.ctx.clock;
  const progress = options.onProgress ?? (() => {});
  const now = clock.now().toISOString();
  const tag = randomBytes(4).toString('hex'); // 8 hex digits

  const ctx = { ...target.ctx, clock };
  let companyId = options.companyId;
  if (companyId) {
    await getCompany(ctx, companyId).catch((error: unknown) => {
      throw error instanceof NotFoundError ? new SeedBulkError(`No company ${companyId}`) : error;
    });
  } else {
    companyId = (await createCompany(ctx, { name: `Benchmark company ${tag}` })).id;
  }
  const company = companyId;

  let statusHistory = 0;
  await database.db.transaction(async (tx) => {
    for (let from = 0; from < L; from += CHUNK) {
      await insertListings(tx, company, tag, now, from, Math.min(L, from + CHUNK) - 1, open);
      progress(`listings ${Math.min(L, from + CHUNK)}/${L}`);
    }
    for (let from = 0; from < C; from += CHUNK) {
      await insertCandidates(tx, company, tag, now, from, Math.min(C, from + CHUNK) - 1);
      progress(`candidates ${Math.min(C, from + CHUNK)}/${C}`);
    }
    for (let from = 0; from < A; from += CHUNK) {
      statusHistory += await insertApplications(tx, company, tag, now, from, Math.min(A, from + CHUNK) - 1, C, open);
      progress(`applications ${Math.min(A, from + CHUNK)}/${A}`);
    }
  });
  // Fresh statistics, so the planner knows the tables grew by orders of magnitude.
  await database.execScript('ANALYZE job_listings; ANALYZE candidates; ANALYZE applications; ANALYZE application_status_history;');
  return { companyId: company, listings: L, candidates: C, applications: A, statusHistory };
}

async function insertListings(tx: Db, companyId: string, tag: string, now: string, first: number, last: number, open: number) {
  const k = sql`k`;
  const { status, publishedAt, closedAt } = listingTimeline(k, now);
  const draftCreated = sql`${now}::timestamptz - make_interval(days => ${scramble(k, 23, 30)})`;
  await tx.execute(sql`
    with sector_ids as (select array_agg(id order by sort_order, id) as ids from sectors where parent_id is null)
    insert into job_listings (id, company_id, status, language, sector_id, position, position_type, work_place_type,
      address_city, job_description, currency, salary_base, salary_max, payment_interval, number_of_positions_opened,
      reference_number, created_at, updated_at, published_at, activated_at, expires_at, closed_at)
    select ${uuidFor(tag, 'L', k)}, ${companyId}, s.status, 'en',
      sector_ids.ids[1 + ${scramble(k, 29, 1000)} % greatest(cardinality(sector_ids.ids), 1)],
      trim(${pick(LEVELS, scramble(k, 31, 1000))} || ' ' || ${pick(POSITIONS, k)}),
      ${pick(POSITION_TYPES, scramble(k, 37, 1000))}, ${pick(WORK_PLACE_TYPES, scramble(k, 41, 1000))},
      ${pick(CITIES, scramble(k, 43, 1000))},
      'Synthetic listing for benchmarks.', 'EUR', 30000 + 1000 * ${scramble(k, 47, 60)},
      60000 + 1000 * ${scramble(k, 47, 60)}, 'YEARLY', 1 + ${scramble(k, 53, 3)},
      ${`BENCH-${tag}-`} || k::text,
      coalesce(s.published_at - interval '2 days', ${draftCreated}),
      coalesce(s.closed_at, s.published_at, ${draftCreated}),
      s.published_at, s.published_at, s.published_at + interval '60 days', s.closed_at
    from generate_series(${first}::int, ${last}::int) as k
    cross join sector_ids
    cross join lateral (
      select case when k >= ${open} then 'DRAFT' else ${status} end as status,
             case when k >= ${open} then null else ${publishedAt} end as published_at,
             case when k >= ${open} then null else ${closedAt} end as closed_at
    ) as s`);
}

async function insertCandidates(tx: Db, companyId: string, tag: string, now: string, first: number, last: number) {
  const j = sql`j`;
  await tx.execute(sql`
    insert into candidates (id, company_id, first_name, last_name, email, phone, headline, location, skills, links, source,
      created_at, updated_at)
    select ${uuidFor(tag, 'C', j)},
      ${companyId},
      ${pick(FIRST_NAMES, j)},
      ${pick(LAST_NAMES, sql`(${j} / ${FIRST_NAMES.length})`)},
      ${'c'} || j::text || ${`.${tag}@bench.example`},
      case when j % 3 = 0 then null else '+49 30 ' || lpad((j % 10000000)::text, 7, '0') end,
      trim(${pick(LEVELS, scramble(j, 59, 1000))} || ' ' || ${pick(POSITIONS, scramble(j, 61, 1000))}),
      ${pick(CITIES, scramble(j, 67, 1000))},
      array[${pick(SKILLS, scramble(j, 71, 1000))}, ${pick(SKILLS, scramble(j, 73, 1000))}, ${pick(SKILLS, scramble(j, 79, 1000))}],
      '{}',
      case when j % 4 = 0 then 'IMPORTED' else 'EXTERNAL' end,
      c.created_at, c.created_at
    from generate_series(${first}::int, ${last}::int) as j
    cross join lateral (select ${now}::timestamptz - make_interval(days => ${scramble(j, 83, 365)}, mins => ${scramble(j, 89, 1440)}) as created_at) as c`);
}

/**
 * Applications first..last with their history. Application n is candidate n % C's application to
 * listing (n / C + n % C) % open: for one candidate, successive n give distinct listings, so no
 * pair repeats while n < C * open. Each is placed inside its listing's open window, has a stage
 * drawn from a realistic distribution, and a history path through the stages to it.
 */
async function insertApplications(
  tx: Db,
  companyId: string,
  tag: string,
  now: string,
  first: number,
  last: number,
  candidates: number,
  open: number,
): Promise<number> {
  const n = sql`n`;
  const k = sql`((n::bigint / ${candidates} + n % ${candidates}) % ${open})`;
  const { publishedAt, closedAt } = listingTimeline(k, now);
  const roll = scramble(n, 97, 100);
  // 40% new, then fewer at each later stage; 17% rejected, 8% withdrawn.
  const stage = sql`case when ${roll} < 40 then 'ACTIVE' when ${roll} < 55 then 'IN_REVIEW' when ${roll} < 65 then 'INTERVIEW'
    when ${roll} < 70 then 'OFFER' when ${roll} < 75 then 'HIRED' when ${roll} < 92 then 'REJECTED' else 'WITHDRAWN' end`;
  // The stages passed on the way (rejections happen after review or after an interview).
  const path = sql`case a.status
    when 'ACTIVE' then array['ACTIVE']
    when 'IN_REVIEW' then array['ACTIVE','IN_REVIEW']
    when 'INTERVIEW' then array['ACTIVE','IN_REVIEW','INTERVIEW']
    when 'OFFER' then array['ACTIVE','IN_REVIEW','INTERVIEW','OFFER']
    when 'HIRED' then array['ACTIVE','IN_REVIEW','INTERVIEW','OFFER','HIRED']
    when 'REJECTED' then case when get_byte(uuid_send(a.id), 15) % 3 = 0 then array['ACTIVE','IN_REVIEW','INTERVIEW','REJECTED'] else array['ACTIVE','IN_REVIEW','REJECTED'] end
    else array['ACTIVE','WITHDRAWN'] end`;
  // The furthest funnel stage of that path (migration 0015 keeps it from the moves; inserted whole
  // here, so it is given): REJECTED after an interview reached INTERVIEW, else IN_REVIEW.
  const furthest = sql`case ${stage} when 'ACTIVE' then 0 when 'IN_REVIEW' then 1 when 'INTERVIEW' then 2 when 'OFFER' then 3
    when 'HIRED' then 4 when 'REJECTED' then case when get_byte(uuid_send(${uuidFor(tag, 'A', n)}), 15) % 3 = 0 then 2 else 1 end
    else 0 end`;
  const [row] = await queryRows<{ history: number }>(
    tx,
    sql`
    with inserted as (
      insert into applications (id, company_id, job_listing_id, candidate_id, status, source, cover_letter, applied_at, updated_at,
        furthest_stage)
      select ${uuidFor(tag, 'A', n)}, ${companyId}, ${uuidFor(tag, 'L', k)}, ${uuidFor(tag, 'C', sql`(n % ${candidates})`)},
        ${stage}, ${pick(APPLICATION_SOURCES.filter((source) => source !== 'IMPORTED'), scramble(n, 103, 1000))}, null,
        w.applied_at,
        case when ${stage} = 'ACTIVE' then w.applied_at
             else least(w.applied_at + make_interval(days => 1 + ${scramble(n, 107, 40)}, hours => ${scramble(n, 109, 24)}), ${now}::timestamptz) end,
        ${furthest}
      from generate_series(${first}::int, ${last}::int) as n
      cross join lateral (
        select ${publishedAt} as opened, coalesce(${closedAt}, ${now}::timestamptz) as closes
      ) as l
      cross join lateral (
        select l.opened + (l.closes - l.opened) * (${scramble(n, 113, 10000)} / 10000.0)::float8 as applied_at
      ) as w
      returning id, status, applied_at, updated_at
    ), history as (
      insert into application_status_history (id, company_id, application_id, from_status, to_status, reason, api_key_id, changed_at)
      -- History ids follow their application's id, then the step: ascending too.
      select (${tag + 'd'} || substr(replace(a.id::text, '-', ''), 11, 22) || to_hex(step.i))::uuid, ${companyId}, a.id,
        case when step.i = 1 then null else p.stages[step.i - 1] end, p.stages[step.i], null, null,
        case when cardinality(p.stages) = 1 then a.applied_at
             else a.applied_at + (a.updated_at - a.applied_at) * ((step.i - 1)::float8 / (cardinality(p.stages) - 1)) end
      from inserted a
      cross join lateral (select ${path} as stages) as p
      cross join lateral generate_series(1, cardinality(p.stages)) as step(i)
      returning 1
    )
    select count(*)::int as history from history`,
  );
  return row.history;
}
