// Personal data on request (docs/decisions.md, "Personal data"): DELETE /public/v1/candidates/{id}
// erases the person everywhere the service keeps them, in one transaction; GET .../export answers
// everything stored about them. The proof is a scan of every table of the database for the
// person's e-mail, names and phone after the erasure.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { runWebhookWorkerOnce } from '../../src/modules/webhooks/delivery-worker.ts';
import { createWebhookTransport, type WebhookTransport } from '../../src/modules/webhooks/transport.ts';
import { expectErrorEnvelope } from '../helpers/envelope.ts';
import { makeListing } from '../helpers/factories.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';

const silentLog = { debug() {}, info() {}, warn() {}, error() {} };

let t: TestApp;
let transport: WebhookTransport;
let receiver: Receiver;
let tenant: Tenant;

const PERSON = {
  firstName: 'Zephyrine',
  lastName: 'Quackenbush',
  email: 'Zephyrine.Q@Example.com',
  phone: '+49 151 98765432',
  headline: 'Distinguished wind engineer',
  location: 'Tromsø, NO',
  links: ['https://zq.example.org/cv'],
};
const NEEDLES = ['zephyrine.q@example.com', 'Zephyrine', 'Quackenbush', '+49 151 98765432', '98765432', 'Tromsø', 'zq.example.org'];
const applicantOf = ({ location: _location, links: _links, ...applicant }: typeof PERSON) => applicant;
const CONTROL = { firstName: 'Bartholomew', lastName: 'Controlson', email: 'bart.control@example.com', phone: '+1 555 0100' };

beforeAll(async () => {
  t = await buildTestApp();
  transport = createWebhookTransport({ allowLocal: true });
  // A receiver that echoes what it got: the delivery log then keeps the person in its answers too.
  receiver = await startReceiver((request) => ({ status: 200, body: request.body }));
  tenant = await t.tenant();
});
afterAll(async () => {
  await transport.close();
  await receiver.close();
  await t.close();
});

const work = () =>
  runWebhookWorkerOnce({ db: t.ctx.db, clock: t.clock, secrets: t.ctx.secrets, transport, log: silentLog, leaseMs: 60_000, concurrency: 10, random: () => 0.5 });

/** For each text, the tables (of every table in the database) whose rows hold it, in any letter case. */
async function tablesHoldingEach(needles: string[]): Promise<Record<string, string[]>> {
  const tables = await queryRows<{ name: string }>(
    t.database.db,
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  );
  expect(tables.length).toBeGreaterThan(20);
  const holding: Record<string, string[]> = Object.fromEntries(needles.map((needle) => [needle, []]));
  const lowered = needles.map((needle) => needle.toLowerCase());
  for (const { name } of tables) {
    // One pass over the table: which of the texts any row holds.
    const found = await queryRows<{ needle: string }>(
      t.database.db,
      sql`select distinct needle from ${sql.identifier(name)} as r, unnest(array[${sql.join(lowered.map((needle) => sql`${needle}`), sql`, `)}]::text[]) as needle
          where strpos(lower(r::text), needle) > 0`,
    );
    for (const { needle } of found) holding[needles[lowered.indexOf(needle)]].push(name);
  }
  return holding;
}

async function tablesHolding(needle: string): Promise<string[]> {
  return (await tablesHoldingEach([needle]))[needle];
}

async function apply(listingId: string, candidate: object, key: string, coverLetter: string): Promise<{ id: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/public/v1/applications',
    headers: { ...tenant.headers, 'idempotency-key': key },
    payload: { jobListingId: listingId, candidate, coverLetter },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

describe('erasure and export of a candidate', () => {
  let candidateId: string;
  let applicationId: string;
  let controlId: string;
  let listingId: string;

  beforeAll(async () => {
    const subscription = await t.app.inject({
      method: 'POST',
      url: '/public/v1/webhooks',
      headers: tenant.headers,
      payload: { url: `${receiver.origin}/hook`, events: ['application.created', 'application.status_changed', 'candidate.created', 'candidate.erased'] },
    });
    expect(subscription.statusCode).toBe(201);
    listingId = await makeListing(t, tenant.companyId, 'ACTIVE');
    const application = await apply(listingId, applicantOf(PERSON), 'erase-me-1', 'Dear team, I am Zephyrine Quackenbush, call +49 151 98765432.');
    // The import (upsert by e-mail) adds what an application does not carry.
    const imported = await t.app.inject({ method: 'POST', url: '/public/v1/candidates/import', headers: tenant.headers, payload: { candidates: [PERSON] } });
    expect(imported.statusCode, imported.body).toBe(200);
    applicationId = application.id;
    const control = await apply(listingId, CONTROL, 'control-1', 'Bartholomew here.');
    const moved = await t.app.inject({
      method: 'PATCH',
      url: `/public/v1/applications/${applicationId}/status`,
      headers: tenant.headers,
      payload: { status: 'INTERVIEW', reason: 'Zephyrine impressed the panel' },
    });
    expect(moved.statusCode).toBe(200);
    const profile = await t.app.inject({ url: `/public/v1/applications/${applicationId}`, headers: tenant.headers });
    candidateId = (profile.json() as { jobSeekerId: string }).jobSeekerId;
    controlId = (
      (await t.app.inject({ url: `/public/v1/applications/${control.id}`, headers: tenant.headers })).json() as { jobSeekerId: string }
    ).jobSeekerId;
    await work();
    expect(receiver.requests.length).toBeGreaterThanOrEqual(5);
  });

  it('exports everything stored about the person', async () => {
    const res = await t.app.inject({ url: `/public/v1/candidates/${candidateId}/export`, headers: tenant.headers });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { candidate: unknown; applications: unknown; events: Array<{ type: string }>; webhookDeliveries: unknown[] };
    expect(body.candidate).toMatchObject({ id: candidateId, ...PERSON });
    expect(body.applications).toEqual([
      expect.objectContaining({
        id: applicationId,
        coverLetter: expect.stringContaining('Zephyrine'),
        status: 'INTERVIEW',
        history: [
          expect.objectContaining({ fromStatus: null, toStatus: 'ACTIVE' }),
          expect.objectContaining({ fromStatus: 'ACTIVE', toStatus: 'INTERVIEW', reason: 'Zephyrine impressed the panel' }),
        ],
      }),
    ]);
    expect(body.events.map((event) => event.type).sort()).toEqual([
      'application.created',
      'application.status_changed',
      'candidate.created',
    ]);
    expect(body.webhookDeliveries).toHaveLength(3);
    expect(JSON.stringify(body)).not.toContain('Bartholomew');
  });

  it("another company's key, or a key without candidates:write, cannot erase; bad ids are 422", async () => {
    const other = await t.tenant();
    for (const [method, url] of [
      ['DELETE', `/public/v1/candidates/${candidateId}`],
      ['GET', `/public/v1/candidates/${candidateId}/export`],
    ] as const) {
      expectErrorEnvelope(await t.app.inject({ method, url, headers: other.headers }), 404, 'NOT_FOUND', url);
    }
    const readOnly = { 'x-api-key': await t.keyFor(tenant.companyId, ['candidates:read']) };
    const url = `/public/v1/candidates/${candidateId}`;
    expectErrorEnvelope(await t.app.inject({ method: 'DELETE', url, headers: readOnly }), 403, 'FORBIDDEN', url);
    expectErrorEnvelope(
      await t.app.inject({ method: 'DELETE', url: '/public/v1/candidates/not-a-uuid', headers: tenant.headers }),
      422,
      'VALIDATION_ERROR',
      '/public/v1/candidates/not-a-uuid',
    );
    // Still there, whole.
    expect((await t.app.inject({ url, headers: tenant.headers })).statusCode).toBe(200);
  });

  it('erases the person from every table; the rest stays', { timeout: 60_000 }, async () => {
    const before = await tablesHoldingEach(NEEDLES);
    for (const needle of NEEDLES) expect(before[needle], needle).not.toEqual([]);
    // Every kind of copy is there before: the scan below proves each one goes.
    expect(before.Zephyrine).toEqual(
      expect.arrayContaining([
        'candidates',
        'applications',
        'application_status_history',
        'events',
        'webhook_deliveries',
        'webhook_delivery_attempts',
      ]),
    );
    // The stored Idempotency-Key answers hold the person too, sealed (so the scan cannot see them):
    // a replay shows it, and the replay after the erasure below shows it gone.
    expect(before.Zephyrine).not.toContain('idempotency_keys');
    const replayBefore = await t.app.inject({
      method: 'POST',
      url: '/public/v1/applications',
      headers: { ...tenant.headers, 'idempotency-key': 'erase-me-1' },
      payload: { jobListingId: listingId, candidate: applicantOf(PERSON), coverLetter: 'Dear team, I am Zephyrine Quackenbush, call +49 151 98765432.' },
    });
    expect(replayBefore.headers['idempotent-replayed']).toBe('true');
    expect(replayBefore.body).toContain('Zephyrine');
    const res = await t.app.inject({ method: 'DELETE', url: `/public/v1/candidates/${candidateId}`, headers: tenant.headers });
    expect(res.statusCode, res.body).toBe(204);

    expect(await tablesHoldingEach(NEEDLES)).toEqual(Object.fromEntries(NEEDLES.map((needle) => [needle, []])));
    // The scan does find what was not erased.
    expect(await tablesHolding(CONTROL.email)).toEqual(expect.arrayContaining(['candidates', 'events', 'webhook_deliveries']));

    // The candidate is gone for the API; their application stays, anonymized.
    const url = `/public/v1/candidates/${candidateId}`;
    expectErrorEnvelope(await t.app.inject({ url, headers: tenant.headers }), 404, 'NOT_FOUND', url);
    expectErrorEnvelope(await t.app.inject({ method: 'DELETE', url, headers: tenant.headers }), 404, 'NOT_FOUND', url);
    expectErrorEnvelope(await t.app.inject({ url: `${url}/export`, headers: tenant.headers }), 404, 'NOT_FOUND', `${url}/export`);
    const list = (await t.app.inject({ url: '/public/v1/candidates', headers: tenant.headers })).json() as { data: Array<{ id: string }> };
    expect(list.data.map((item) => item.id)).toEqual([controlId]);
    const application = await t.app.inject({ url: `/public/v1/applications/${applicationId}`, headers: tenant.headers });
    expect(application.statusCode).toBe(200);
    expect(application.json()).toMatchObject({ status: 'INTERVIEW', coverLetter: null, candidate: { firstName: 'Erased', lastName: 'Candidate', phone: null } });

    // The event says so, with ids only, and is delivered.
    const [event] = await queryRows<{ data: unknown }>(
      t.database.db,
      sql`select data from events where company_id = ${tenant.companyId} and type = 'candidate.erased'`,
    );
    expect(event.data).toEqual({ candidateId, applicationIds: [applicationId] });
    await work();
    expect(receiver.requests.filter((request) => request.body.includes('"candidate.erased"'))).toHaveLength(1);

    // A replay of the first request answers the anonymized copy.
    const replay = await t.app.inject({
      method: 'POST',
      url: '/public/v1/applications',
      headers: { ...tenant.headers, 'idempotency-key': 'erase-me-1' },
      payload: { jobListingId: (application.json() as { jobListingId: string }).jobListingId, candidate: applicantOf(PERSON), coverLetter: 'Dear team, I am Zephyrine Quackenbush, call +49 151 98765432.' },
    });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).not.toContain('Zephyrine');

    // The other candidate is untouched.
    expect((await t.app.inject({ url: `/public/v1/candidates/${controlId}`, headers: tenant.headers })).json()).toMatchObject(CONTROL);
  });
});
