// The two ceilings the API is measured against, on the same data in the same run:
//   /memory/listings  (a) bare Fastify answering the big company's first 20-listing page from memory;
//   /pg/<resource>    (b) a minimal Fastify + pg handler running only the one indexed page query
//                         (no auth, no total, no envelope).
// `PORT=… DATABASE_URL=… COMPANY_ID=… node bench/ceiling.ts`
import Fastify from 'fastify';
import pg from 'pg';

const companyId = process.env.COMPANY_ID!;
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

const PAGE_QUERIES: Record<string, string> = {
  listings: `select id, status, position, position_type, work_place_type, created_at, language from job_listings
             where company_id = $1 and status <> 'ARCHIVED' order by created_at desc, id desc limit 20`,
  applications: `select * from applications where company_id = $1 order by applied_at desc, id desc limit 20`,
  candidates: `select id, first_name, last_name, email, phone, headline, location, skills, links, source, created_at, updated_at
               from candidates where company_id = $1 order by created_at desc, id desc limit 20`,
};

const memoryPage = (await pool.query(PAGE_QUERIES.listings, [companyId])).rows;
const app = Fastify({ logger: false });
app.get('/memory/listings', async () => memoryPage);
for (const [resource, text] of Object.entries(PAGE_QUERIES)) {
  app.get(`/pg/${resource}`, async () => (await pool.query({ name: resource, text, values: [companyId] })).rows);
}
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('ready');
