// The three ceilings the API is measured against, on the same data in the same run:
//   /memory/listings  (a) bare Fastify answering the big company's first 20-listing page from memory;
//   /pg/<resource>    (b) a minimal Fastify + pg handler running only the one indexed page query
//                         (no auth, no total, no envelope);
//   PATCH /pg/move/<application id> {status}
//                     (c) the least a durable status move must do, Fastify + pg: in one transaction
//                         (one statement) on the same table, the row moved (its indexes kept; the
//                         project's triggers skipped: the session runs as a replica, which skips
//                         foreign-key checks too), a history row, an outbox row and a NOTIFY (sent by
//                         one of the transactions committing together, as the outbox's trigger
//                         does); then the listing and the candidate summary the answer embeds, read
//                         by id (one statement). A move to the stage the row is in writes nothing, as
//                         the API's.
// `PORT=… DATABASE_URL=… COMPANY_ID=… node bench/ceiling.ts`
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

const companyId = process.env.COMPANY_ID!;
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
// Ceiling (c)'s sessions: triggers skipped (session_replication_role needs a superuser, as the bench's
// database user is).
const movePool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10, options: '-c session_replication_role=replica' });

const PAGE_QUERIES: Record<string, string> = {
  listings: `select id, status, position, position_type, work_place_type, created_at, language from job_listings
             where company_id = $1 and status <> 'ARCHIVED' order by created_at desc, id desc limit 20`,
  applications: `select * from applications where company_id = $1 order by applied_at desc, id desc limit 20`,
  candidates: `select id, first_name, last_name, email, phone, headline, location, skills, links, source, created_at, updated_at
               from candidates where company_id = $1 order by created_at desc, id desc limit 20`,
};

/** The application's columns ceiling (c) answers, named: a column added to the table must not break its union. */
const ANSWERED = 'id, company_id, job_listing_id, candidate_id, status, source, cover_letter, applied_at, updated_at, furthest_stage, rejection_reason_id';

/** Ceiling (c)'s move: $1 company, $2 application, $3 new stage, $4 history id, $5 event id. */
const MOVE = `with old as (
    select id, status from applications where company_id = $1 and id = $2 for update
  ),
  moved as (
    update applications a set status = $3, updated_at = now()
    from old where a.id = old.id and old.status <> $3
    returning a.*, old.status as previous_status
  ),
  history as (
    insert into application_status_history (id, company_id, application_id, from_status, to_status, reason, api_key_id, changed_at)
    select $4::uuid, company_id, id, previous_status, status, null, null, updated_at from moved
  ),
  event as (
    insert into events (id, company_id, type, data, occurred_at)
    select $5::uuid, company_id, 'application.status_changed',
      jsonb_build_object('application', to_jsonb(moved) - 'previous_status', 'previousStatus', previous_status, 'newStatus', status, 'reason', null),
      updated_at
    from moved
  ),
  -- One notifier among the transactions committing at the same moment, as the project's outbox does
  -- (migration 0024): a NOTIFY makes its commit hold a cluster-wide lock until flushed, so a NOTIFY
  -- in every transaction would serialize the ceiling's commits and make it no ceiling.
  notified as (select pg_notify('events_recorded', '') from moved where pg_try_advisory_xact_lock(hashtext('events_recorded'), 0))
  select ${ANSWERED}, (select count(*)::int from notified) as notified
  from moved
  union all
  select ${ANSWERED}, 0 from applications where company_id = $1 and id = $2 and not exists (select 1 from moved)`;

/** Ceiling (c)'s read of what the answer embeds: $1 company, $2 listing, $3 candidate. */
const EMBEDDED = `select to_jsonb(l) as listing, to_jsonb(c) as candidate
  from job_listings l, (select id, first_name, last_name, headline, email, phone from candidates where company_id = $1 and id = $3) c
  where l.company_id = $1 and l.id = $2`;

const memoryPage = (await pool.query(PAGE_QUERIES.listings, [companyId])).rows;
const app = Fastify({ logger: false });
app.get('/memory/listings', async () => memoryPage);
for (const [resource, text] of Object.entries(PAGE_QUERIES)) {
  app.get(`/pg/${resource}`, async () => (await pool.query({ name: resource, text, values: [companyId] })).rows);
}
app.patch<{ Params: { id: string }; Body: { status: string } }>('/pg/move/:id', async (request, reply) => {
  const moved = await movePool.query({ name: 'move', text: MOVE, values: [companyId, request.params.id, request.body.status, randomUUID(), randomUUID()] });
  const row = moved.rows[0];
  if (!row) return reply.code(404).send({ error: 'NOT_FOUND' });
  const embedded = await movePool.query({ name: 'embedded', text: EMBEDDED, values: [companyId, row.job_listing_id, row.candidate_id] });
  const { notified: _notified, ...application } = row;
  return { ...application, candidate: embedded.rows[0].candidate, jobListing: embedded.rows[0].listing };
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('ready');
