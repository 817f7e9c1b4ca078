// The SDK against the real server: a listening app on a real database, called over HTTP through
// the package as other workspaces import it (@recruiting/sdk, through the workspace link).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecruitingClient, RecruitingApiError, SDK_VERSION, verifyWebhook, WebhookVerificationError, type Schemas } from '@recruiting/sdk';
import { runWebhookWorkerOnce } from '../../src/modules/webhooks/delivery-worker.ts';
import { createWebhookTransport, type WebhookTransport } from '../../src/modules/webhooks/transport.ts';
import { buildTestApp, type Tenant, type TestApp } from '../../test/helpers/test-app.ts';
import { startReceiver, type Receiver } from '../../test/webhooks/receiver.ts';

let t: TestApp;
let tenant: Tenant;
let baseUrl: string;

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '1000' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  tenant = await t.tenant();
});
afterAll(async () => {
  await t.close();
});

const client = () => createRecruitingClient({ baseUrl, apiKey: tenant.apiKey });

const listingBody = (position: string) => ({ position, positionType: 'FULL_TIME' as const, workPlaceType: 'REMOTE' as const });

async function activeListing(position = 'Backend engineer'): Promise<Schemas['JobListing']> {
  const api = client();
  const created = await api.POST('/public/v1/job-listings', { body: listingBody(position) });
  expect(created.response.status).toBe(201);
  const published = await api.POST('/public/v1/job-listings/{id}/publish', { params: { path: { id: created.data!.id } } });
  expect(published.data?.status).toBe('ACTIVE');
  return published.data!;
}

describe('the SDK against the real server', () => {
  it('creates, publishes and lists job listings, typed', async () => {
    const api = client();
    const listing = await activeListing('Data engineer');
    expect(listing.position.value).toBe('Data engineer');
    const { data, response } = await api.GET('/public/v1/job-listings', { params: { query: { status: ['ACTIVE'] } } });
    expect(response.status).toBe(200);
    expect(data!.data.map((item) => item.id)).toContain(listing.id);
  });

  it('names itself and its version (the API release) in User-Agent, unless the caller sets one', async () => {
    const sent: (string | null)[] = [];
    const recording = (request: Request) => {
      sent.push(request.headers.get('user-agent'));
      return globalThis.fetch(request);
    };
    const api = createRecruitingClient({ baseUrl, apiKey: tenant.apiKey, fetch: recording });
    expect((await api.GET('/public/v1/enums')).response.status).toBe(200);
    const own = createRecruitingClient({ baseUrl, apiKey: tenant.apiKey, fetch: recording, headers: { 'User-Agent': 'my-ats/2' } });
    expect((await own.GET('/public/v1/enums')).response.status).toBe(200);
    const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
    expect(SDK_VERSION).toBe(version);
    expect(sent).toEqual([`recruiting-sdk/${version}`, 'my-ats/2']);
  });

  it('sends no If-None-Match unless asked; a conditional GET answers 304 with no data and no throw', async () => {
    const sent: (string | null)[] = [];
    const recording = (request: Request) => {
      sent.push(request.headers.get('if-none-match'));
      return globalThis.fetch(request);
    };
    const api = createRecruitingClient({ baseUrl, apiKey: tenant.apiKey, fetch: recording });
    const listing = await activeListing('Cached engineer');
    const first = await api.GET('/public/v1/job-listings/{id}', { params: { path: { id: listing.id } } });
    expect(first.response.status).toBe(200);
    const tag = first.response.headers.get('etag')!;
    expect((await api.GET('/public/v1/job-listings/{id}', { params: { path: { id: listing.id } } })).data?.id).toBe(listing.id);
    const revalidated = await api.GET('/public/v1/job-listings/{id}', { params: { path: { id: listing.id }, header: { 'if-none-match': tag } } });
    expect(revalidated.response.status).toBe(304);
    expect(revalidated.data).toBeUndefined();
    expect(revalidated.response.headers.get('etag')).toBe(tag);
    expect(sent).toEqual([null, null, tag]);
  });

  it('applies and moves an application; a stale move answers a typed 409', async () => {
    const api = client();
    const listing = await activeListing();
    const applied = await api.POST('/public/v1/applications', {
      body: { jobListingId: listing.id, candidate: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' } },
    });
    expect(applied.response.status).toBe(201);
    const id = applied.data!.id;
    const moved = await api.PATCH('/public/v1/applications/{id}/status', {
      params: { path: { id } },
      body: { status: 'IN_REVIEW', expectedStatus: 'ACTIVE' },
    });
    expect(moved.data?.status).toBe('IN_REVIEW');
    const stale = await api.PATCH('/public/v1/applications/{id}/status', {
      params: { path: { id } },
      body: { status: 'INTERVIEW', expectedStatus: 'ACTIVE' },
    });
    expect(stale.response.status).toBe(409);
    expect(stale.data).toBeUndefined();
    // Typed as the error envelope: `error` is one of the documented codes.
    const code: Schemas['ErrorEnvelope']['error'] | undefined = stale.error?.error;
    expect(code).toBe('CONFLICT');
    // A list under a path parameter, through paginate: the submission and the one move.
    const history: string[] = [];
    for await (const change of api.paginate('/public/v1/applications/{id}/history', { path: { id }, query: { size: 1 } })) {
      history.push(change.toStatus);
    }
    expect(history.sort()).toEqual(['ACTIVE', 'IN_REVIEW']);
    // The list's filters, typed: sources and the applied period [appliedFrom, appliedTo).
    const appliedAt = applied.data!.appliedAt;
    const period = { appliedFrom: appliedAt, appliedTo: new Date(Date.parse(appliedAt) + 1).toISOString() };
    const listed = await api.GET('/public/v1/applications', { params: { query: { source: ['EXTERNAL', 'REFERRAL'], ...period, candidateId: applied.data!.jobSeekerId } } });
    expect(listed.data?.data.map((application) => application.id)).toEqual([id]);
    const none = await api.GET('/public/v1/applications', { params: { query: { source: ['REFERRAL'], ...period } } });
    expect(none.data?.pagination.totalElements).toBe(0);
  });

  it('paginate() yields every item of every page exactly once', async () => {
    const own = await t.tenant();
    const api = createRecruitingClient({ baseUrl, apiKey: own.apiKey });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const { data } = await api.POST('/public/v1/job-listings', { body: listingBody(`Role ${i}`) });
      ids.push(data!.id);
    }
    const seen: string[] = [];
    for await (const item of api.paginate('/public/v1/job-listings', { query: { size: 3 } })) seen.push(item.id);
    expect(seen.length).toBe(7);
    expect([...seen].sort()).toEqual([...ids].sort());
  });

  it('paginate() throws the API error', async () => {
    const api = client();
    const iterate = async () => {
      for await (const _ of api.paginate('/public/v1/job-listings', { query: { size: 1000 } })) void _;
    };
    await expect(iterate()).rejects.toBeInstanceOf(RecruitingApiError);
    await expect(iterate()).rejects.toMatchObject({ status: 422, body: { error: 'VALIDATION_ERROR' } });
  });

  it('retries a rate-limited POST after Retry-After with the same Idempotency-Key: created once', async () => {
    const limited = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '2' });
    try {
      const own = await limited.tenant();
      await limited.app.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(limited.app.server.address() as AddressInfo).port}`;
      const sent: Array<{ status: number; key: string | null }> = [];
      const waits: number[] = [];
      const api = createRecruitingClient({
        baseUrl: url,
        apiKey: own.apiKey,
        fetch: async (request) => {
          const response = await fetch(request);
          sent.push({ status: response.status, key: request.headers.get('idempotency-key') });
          return response;
        },
        // The limit's window is the app's clock: waiting moves it on.
        retry: { sleep: async (ms) => { waits.push(ms); limited.clock.advance(ms); } },
      });
      await api.GET('/public/v1/job-listings');
      await api.GET('/public/v1/job-listings');
      const created = await api.POST('/public/v1/job-listings', { body: listingBody('Retried') });
      expect(created.response.status).toBe(201);
      const posts = sent.slice(2);
      expect(posts.map((s) => s.status)).toEqual([429, 201]);
      expect(posts[0].key).toBeTruthy();
      expect(posts[1].key).toBe(posts[0].key);
      expect(waits).toHaveLength(1);
      expect(waits[0]).toBeGreaterThan(0);
      expect(waits[0]).toBeLessThanOrEqual(60_000);
    } finally {
      await limited.close();
    }
  });
});

describe('webhook verification with the SDK', () => {
  let receiver: Receiver;
  let transport: WebhookTransport;
  beforeAll(async () => {
    receiver = await startReceiver();
    transport = createWebhookTransport({ allowLocal: true });
  });
  afterAll(async () => {
    await transport.close();
    await receiver.close();
  });

  it('verifies a real delivery and types its event; a tampered body is refused', async () => {
    const own = await t.tenant();
    const api = createRecruitingClient({ baseUrl, apiKey: own.apiKey });
    const subscription = await api.POST('/public/v1/webhooks', {
      body: { url: `${receiver.origin}/sdk-hook`, events: ['job_listing.created'] },
    });
    expect(subscription.response.status).toBe(201);
    const secret = subscription.data!.secret;
    const created = await api.POST('/public/v1/job-listings', { body: listingBody('Hooked') });
    const silent = { debug() {}, info() {}, warn() {}, error() {} };
    await runWebhookWorkerOnce({
      db: t.ctx.db, clock: t.clock, secrets: t.ctx.secrets, transport, log: silent, leaseMs: 60_000, concurrency: 10, random: () => 0.5,
    });
    await receiver.waitForRequests(1);
    const delivery = receiver.requests.find((r) => r.path === '/sdk-hook')!;
    const event = verifyWebhook(secret, delivery.body, delivery.headers);
    expect(event.type).toBe('job_listing.created');
    if (event.type === 'job_listing.created') expect(event.data.id).toBe(created.data!.id);
    expect(() => verifyWebhook(secret, delivery.body.replace('Hooked', 'Hacked'), delivery.headers)).toThrow(WebhookVerificationError);
  });
});

describe('the package as other workspaces load it', () => {
  // The repository uses the SDK's sources (the "@recruiting/source" condition of its exports map);
  // the built package is checked from a packed tarball by scripts/check-sdk-package.sh.
  it("runs under Node's own type stripping through the workspace link", () => {
    const out = execFileSync(
      process.execPath,
      ['--conditions=@recruiting/source', '--input-type=module', '-e', "import { createRecruitingClient } from '@recruiting/sdk'; console.log(typeof createRecruitingClient({ baseUrl: 'http://127.0.0.1:1' }).paginate)"],
      { cwd: join(import.meta.dirname, '..', '..'), encoding: 'utf8' },
    );
    expect(out.trim()).toBe('function');
  });
});
