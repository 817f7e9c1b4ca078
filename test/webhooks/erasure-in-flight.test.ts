// Erasing a candidate while a delivery about them is in flight: the receiver answers (echoing what
// it got) only after the erasure committed. That answer must not put the person back into the
// delivery log: the outcome is written, its body is not. Both outcome paths are covered: a 2xx
// (written in the grouped statement) and a 500 (the one-attempt transaction that schedules a retry).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { runWebhookWorkerOnce } from '../../src/modules/webhooks/delivery-worker.ts';
import { scrubDeliveriesMentioning } from '../../src/modules/webhooks/service.ts';
import { withTransaction } from '../../src/shared/context.ts';
import { createWebhookTransport, type WebhookTransport } from '../../src/modules/webhooks/transport.ts';
import { makeListing } from '../helpers/factories.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';

const silentLog = { debug() {}, info() {}, warn() {}, error() {} };

/** A receiver that holds each answer until the test releases it, then echoes the body it got. */
interface HeldReceiver {
  origin: string;
  /** Resolves with the body of the next request once it has arrived (its answer held). */
  nextRequest(): Promise<string>;
  /** Sends the held answer with this status. */
  release(status: number): void;
  close(): Promise<void>;
}

async function startHeldReceiver(): Promise<HeldReceiver> {
  let arrived: ((body: string) => void) | undefined;
  let held: ((status: number) => void) | undefined;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      held = (status) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(body);
      };
      arrived?.(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    nextRequest: () => new Promise((resolve) => (arrived = resolve)),
    release: (status) => held?.(status),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let t: TestApp;
let transport: WebhookTransport;
let receiver: HeldReceiver;
let tenant: Tenant;
let listingId: string;

beforeAll(async () => {
  t = await buildTestApp();
  transport = createWebhookTransport({ allowLocal: true });
  receiver = await startHeldReceiver();
  tenant = await t.tenant();
  const subscription = await t.app.inject({
    method: 'POST',
    url: '/public/v1/webhooks',
    headers: tenant.headers,
    payload: { url: `${receiver.origin}/hook`, events: ['candidate.created'] },
  });
  expect(subscription.statusCode, subscription.body).toBe(201);
  listingId = await makeListing(t, tenant.companyId, 'ACTIVE');
});
afterAll(async () => {
  await transport.close();
  await receiver.close();
  await t.close();
});

const work = () =>
  runWebhookWorkerOnce({ db: t.ctx.db, clock: t.clock, secrets: t.ctx.secrets, transport, log: silentLog, leaseMs: 60_000, concurrency: 10, random: () => 0.5 });

/** The stored answers of the deliveries of this candidate's events (found by id, which erasure keeps). */
async function storedAnswers(candidateId: string): Promise<Array<{ status_code: number | null; response_body: string | null; payload: string }>> {
  return queryRows(
    t.database.db,
    sql`SELECT a.status_code, a.response_body, d.payload FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
        WHERE d.company_id = ${tenant.companyId} AND strpos(d.payload, ${candidateId}) > 0 ORDER BY a.attempted_at`,
  );
}

describe('an answer that arrives after the erasure keeps no body', () => {
  it.each([
    ['a 2xx', 200],
    ['a failure (retried later)', 500],
  ])('%s', async (_name, status) => {
    const person = { firstName: 'Ottilie', lastName: `Vanderquist${status}`, email: `ottilie.${status}@example.com` };
    const applied = await t.app.inject({
      method: 'POST',
      url: '/public/v1/applications',
      headers: tenant.headers,
      payload: { jobListingId: listingId, candidate: person },
    });
    expect(applied.statusCode, applied.body).toBe(201);
    const candidateId = (
      (await t.app.inject({ url: `/public/v1/applications/${(applied.json() as { id: string }).id}`, headers: tenant.headers })).json() as {
        jobSeekerId: string;
      }
    ).jobSeekerId;

    const request = receiver.nextRequest();
    const sending = work();
    expect(await request).toContain(person.email);
    // The delivery is in flight, its answer held: the candidate is erased meanwhile.
    const erased = await t.app.inject({ method: 'DELETE', url: `/public/v1/candidates/${candidateId}`, headers: tenant.headers });
    expect(erased.statusCode, erased.body).toBe(204);
    receiver.release(status);
    await sending;

    const answers = await storedAnswers(candidateId);
    expect(answers).toEqual([{ status_code: status, response_body: null, payload: expect.any(String) }]);
    expect(answers[0].payload).not.toContain(person.email);
    expect(JSON.stringify(answers)).not.toContain(person.lastName);
    const log = await t.app.inject({ url: `/public/v1/webhooks`, headers: tenant.headers });
    const subscriptionId = (log.json() as { data: Array<{ id: string }> }).data[0].id;
    const deliveries = await t.app.inject({ url: `/public/v1/webhooks/${subscriptionId}/deliveries?size=100`, headers: tenant.headers });
    expect(deliveries.statusCode).toBe(200);
    expect(deliveries.body).not.toContain(person.email);
    expect(deliveries.body).not.toContain(person.lastName);
  });

  it('an answer to a delivery no erasure touched keeps its body', async () => {
    const person = { firstName: 'Kept', lastName: 'Answerington', email: 'kept.answer@example.com' };
    const applied = await t.app.inject({
      method: 'POST',
      url: '/public/v1/applications',
      headers: tenant.headers,
      payload: { jobListingId: listingId, candidate: person },
    });
    expect(applied.statusCode, applied.body).toBe(201);
    const request = receiver.nextRequest();
    const sending = work();
    await request;
    receiver.release(200);
    await sending;
    const [row] = await queryRows<{ response_body: string | null }>(
      t.database.db,
      sql`SELECT a.response_body FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
          WHERE strpos(d.payload, ${person.email}) > 0`,
    );
    expect(row.response_body).toContain(person.email);
  });

  // PostgreSQL only (the embedded database runs one transaction at a time): the answer is written
  // while the erasure's transaction is still open, having rewritten the delivery's body. The write
  // waits for it and then sees the rewritten body: no body is stored.
  it.runIf(process.env.DATABASE_URL)('an answer written while the erasure is still committing', async () => {
    const person = { firstName: 'Concurrent', lastName: 'Erasington', email: 'concurrent.erasure@example.com' };
    const applied = await t.app.inject({
      method: 'POST',
      url: '/public/v1/applications',
      headers: tenant.headers,
      payload: { jobListingId: listingId, candidate: person },
    });
    expect(applied.statusCode, applied.body).toBe(201);
    const request = receiver.nextRequest();
    const sending = work();
    await request;
    let commit!: () => void;
    let rewritten!: () => void;
    const bodyRewritten = new Promise<void>((resolve) => (rewritten = resolve));
    // The erasure's rewrite of the delivery log, its transaction held open.
    const erasure = withTransaction(t.ctx, async (ctx) => {
      await scrubDeliveriesMentioning(ctx, tenant.companyId, [person.email], (text) => text.replaceAll(person.email, '[erased]'));
      rewritten();
      await new Promise<void>((resolve) => (commit = resolve));
    });
    await bodyRewritten;
    receiver.release(200);
    // Long enough for the outcome write to reach the delivery row and wait on it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    commit();
    await erasure;
    await sending;
    const [row] = await queryRows<{ response_body: string | null; payload: string }>(
      t.database.db,
      sql`SELECT a.response_body, d.payload FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
          WHERE d.company_id = ${tenant.companyId} AND strpos(d.payload, '[erased]') > 0`,
    );
    expect(row).toEqual({ response_body: null, payload: expect.not.stringContaining(person.email) });
  });
});
