// The SDK's retries when the network or the database goes away, against the real server: a
// request that got no answer (the connection refused) is sent again if its method may be repeated,
// and a 503 from a server whose database is unreachable is waited out (Retry-After) instead of
// failing. A TCP proxy of the test's own stands for the network (in front of the server, or in
// front of PostgreSQL); the SDK's `sleep` is where the test brings it back.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecruitingClient } from '@recruiting/sdk';
import { startTcpProxy, targetOf, type TcpProxy } from '../../test/helpers/tcp-proxy.ts';
import { buildTestApp, openTestDatabase, type Tenant, type TestApp, type TestDatabase } from '../../test/helpers/test-app.ts';

const listingBody = { position: 'Welder', positionType: 'FULL_TIME' as const, workPlaceType: 'REMOTE' as const };

describe('the SDK after a refused connection', () => {
  let t: TestApp;
  let tenant: Tenant;
  /** Between the SDK and the server. */
  let network: TcpProxy;

  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '1000' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    network = await startTcpProxy({ host: '127.0.0.1', port: (t.app.server.address() as AddressInfo).port });
    tenant = await t.tenant();
  });
  afterAll(async () => {
    await network?.close();
    await t?.close();
  });

  /** A client whose every wait before a retry records its length and brings the network back. */
  function client() {
    const waits: number[] = [];
    const api = createRecruitingClient({
      baseUrl: `http://127.0.0.1:${network.port}`,
      apiKey: tenant.apiKey,
      retry: {
        sleep: async (ms) => {
          waits.push(ms);
          await network.up();
        },
      },
    });
    return { api, waits };
  }

  it('sends a GET and a DELETE again, once', async () => {
    const { api, waits } = client();
    const created = await api.POST('/public/v1/job-listings', { body: listingBody });
    expect(created.response.status).toBe(201);
    const id = created.data!.id;

    await network.down();
    const read = await api.GET('/public/v1/job-listings/{id}', { params: { path: { id } } });
    expect(read.response.status).toBe(200);
    expect(read.data!.id).toBe(id);

    await network.down();
    const deleted = await api.DELETE('/public/v1/job-listings/{id}', { params: { path: { id } } });
    expect(deleted.response.status).toBe(204);
    expect(waits).toHaveLength(2);
  });

  it('does not send a PATCH again: it may have been made', async () => {
    const { api, waits } = client();
    await network.down();
    try {
      await expect(api.PATCH('/public/v1/applications/{id}/status', { params: { path: { id: crypto.randomUUID() } }, body: { status: 'IN_REVIEW' } })).rejects.toThrow();
      expect(waits).toEqual([]);
    } finally {
      await network.up();
    }
  });
});

describe.skipIf(!process.env.DATABASE_URL)('the SDK while the database is unreachable (PostgreSQL only: the embedded database cannot be)', () => {
  let owner: TestDatabase;
  /** Between the server and PostgreSQL. */
  let database: TcpProxy;
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    owner = await openTestDatabase();
    database = await startTcpProxy(targetOf(owner.url!));
    t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '1000' }, { databaseUrl: database.urlFor(owner.url!) });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    tenant = await t.tenant();
  });
  afterAll(async () => {
    await t?.close();
    await database?.close();
    await owner?.drop();
  });

  it("waits out the server's 503 and its Retry-After, and gets the answer once the database is back", async () => {
    const waits: number[] = [];
    const api = createRecruitingClient({
      baseUrl: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`,
      apiKey: tenant.apiKey,
      retry: {
        sleep: async (ms) => {
          waits.push(ms);
          await database.up();
        },
      },
    });
    await database.down();
    const { data, response } = await api.GET('/public/v1/job-listings');
    expect(response.status).toBe(200);
    expect(data!.data).toEqual([]);
    expect(waits).toEqual([2_000]);
  });
});
