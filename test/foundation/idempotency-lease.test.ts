// A request that dies mid-flight must not leave its Idempotency-Key stuck "in progress" for 24
// hours: its claim is a lease, and a retry after the lease takes the key over. A request overtaken
// that way cannot commit its change too: the key row is checked inside the change's transaction.
import { Type } from 'typebox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import type { AppInstance } from '../../src/http/app-instance.ts';
import { principalOf } from '../../src/http/auth.ts';
import { createJobListing } from '../../src/modules/job-listings/service.ts';
import { withTransaction } from '../../src/shared/context.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;

/** Calls the gate holds back (a request "in flight") until released. */
const gates: Array<{ release: () => void }> = [];
let holdNext = 0;

function testRoutes(app: AppInstance) {
  // Creates a job listing through the real service; the first `holdNext` calls stall before it,
  // like a request whose process hangs or dies mid-flight.
  app.post(
    '/public/v1/test-slow-create',
    {
      config: { auth: { scope: 'jobs:write' } },
      schema: { body: Type.Object({ position: Type.String() }) },
    },
    async (request, reply) => {
      if (holdNext > 0) {
        holdNext--;
        await new Promise<void>((resolve) => gates.push({ release: resolve }));
      }
      const principal = principalOf(request);
      // Its transaction opened through the service context, as a service opens its own: that is
      // where the fence checks the claim (withTransaction).
      const created = await withTransaction(app.ctx, (ctx) =>
        createJobListing(ctx, principal.companyId, {
          position: (request.body as { position: string }).position,
          positionType: 'FULL_TIME',
          workPlaceType: 'REMOTE',
        }),
      );
      return reply.status(201).send({ id: created.listing.id });
    },
  );
}

beforeAll(async () => {
  t = await buildTestApp({ IDEMPOTENCY_LEASE_SECONDS: '60' }, { configure: testRoutes });
});
afterAll(async () => {
  for (const gate of gates) gate.release();
  await t.close();
});

async function listings(companyId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from job_listings where company_id = ${companyId}`);
  return row.n;
}

function post(headers: Record<string, string>, position: string) {
  return t.app.inject({ method: 'POST', url: '/public/v1/test-slow-create', headers, payload: { position } });
}

async function waitForGate(count: number) {
  for (let i = 0; i < 500 && gates.length < count; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(gates).toHaveLength(count);
}

it('lets a retry take over the key of a request that died, once its lease has run out', async () => {
  const tenant = await t.tenant();
  const headers = { ...tenant.headers, 'idempotency-key': 'crash-1' };
  holdNext = 1;
  // The first request claims the key and then never finishes: its process "died".
  void post(headers, 'Welder');
  await waitForGate(1);

  // Within the lease the key is still the first request's.
  const early = await post(headers, 'Welder');
  expect(early.statusCode).toBe(409);
  expect(early.json()).toMatchObject({ error: 'CONFLICT' });

  t.clock.advance(61_000);
  try {
    const retry = await post(headers, 'Welder');
    expect(retry.statusCode).toBe(201);
    expect(await listings(tenant.companyId)).toBe(1);
    // And from then on the retry's answer is the one replayed.
    const replay = await post(headers, 'Welder');
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(retry.json());
    // The same key with another body is still refused.
    expect((await post(headers, 'Painter')).statusCode).toBe(422);
  } finally {
    t.clock.advance(-61_000);
  }
});

it('a request overtaken after its lease cannot commit its change as well (one listing, not two)', async () => {
  const tenant = await t.tenant();
  const headers = { ...tenant.headers, 'idempotency-key': 'slow-1' };
  const before = gates.length;
  holdNext = 1;
  const slow = post(headers, 'Baker');
  await waitForGate(before + 1);

  t.clock.advance(61_000);
  try {
    const retry = await post(headers, 'Baker');
    expect(retry.statusCode).toBe(201);
    // The slow one wakes up and tries to commit: its claim was taken over, so it rolls back.
    gates[before].release();
    const late = await slow;
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ error: 'CONFLICT' });
    expect(await listings(tenant.companyId)).toBe(1);
    const replay = await post(headers, 'Baker');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(retry.json());
  } finally {
    t.clock.advance(-61_000);
  }
});
