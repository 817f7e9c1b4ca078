// Property-based fuzzing of every operation in the app's own /openapi.json, through the real app
// and a real database seeded with two companies. For any request (valid, or mutated in its path
// ids, query, headers or body) the answer must: have a status the document lists for the
// operation, never be a 5xx, carry X-Request-Id, be the error envelope when it is an error, write
// nothing when it failed (nor when it was a read), never touch or show another company's data, and
// answer 404 for another company's id. Violations are grouped into classes, each reported once
// with the smallest request that showed it.
//
// FUZZ_RUNS (total requests, spread over the operations) and FUZZ_SEED make longer or other runs:
//   FUZZ_RUNS=20000 FUZZ_SEED=7 npm test -- test/fuzz
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';
import { FailureClasses, violationsOf } from './oracle.ts';
import { operationsOf, requestFor, type Operation } from './requests.ts';
import type { GenContext, Schema } from './schema-arbitrary.ts';
import { OTHER_MARKER, seedTwoCompanies, type Seeded } from './seed.ts';
import { installWriteLog, type WriteLog } from './write-log.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 1200);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

describe('fuzzing every operation of /openapi.json', () => {
  let t: TestApp;
  let seeded: Seeded;
  let operations: Operation[];
  let ctx: GenContext;
  let writes: WriteLog;
  /** The error behind each 500, by request id (a 500's body rightly says nothing about it). */
  const serverErrors = new Map<string, string>();

  beforeAll(async () => {
    t = await buildTestApp(
      // Rate limits have their own tests; here they would turn most of a long run into 429s.
      { RATE_LIMIT_PER_MINUTE: '1000000' },
      {
        configure: (app) => {
          app.addHook('onError', async (request, _reply, error) => {
            // A failed query's message is the SQL; the database's own reason is in its cause.
            const cause = (error as { cause?: unknown }).cause;
            const reason = cause instanceof Error ? ` (cause: ${cause.message})` : '';
            serverErrors.set(request.id, `${error.name}: ${error.message.split('\n')[0]}${reason}`);
          });
        },
      },
    );
    seeded = await seedTwoCompanies(t);
    const document = (await t.app.inject({ url: '/openapi.json' })).json();
    operations = operationsOf(document).filter((op) => op.path.startsWith('/public/'));
    const headers = { 'x-api-key': seeded.pools.keys.full };
    const sectors = (await t.app.inject({ url: '/public/v1/sectors', headers })).json() as Array<{ id: string }>;
    const tags = (await t.app.inject({ url: '/public/v1/tags', headers })).json() as Array<{ id: string }>;
    const schemas = document.components.schemas as Record<string, Schema>;
    const { own, other } = seeded.pools;
    const ids: Record<string, string[]> = {
      // Mostly the caller's own, so that requests get past the lookup to where the writes happen.
      jobListingId: [...own.listing, ...own.listing, ...own.listing, ...other.listing],
      candidateId: [...own.candidate, ...other.candidate],
      sectorId: (Array.isArray(sectors) ? sectors : []).map((s) => s.id),
      tagId: (Array.isArray(tags) ? tags : []).map((s) => s.id),
      id: seeded.hiringStepIds,
    };
    ctx = {
      resolve: (ref) => schemas[ref.split('/').pop() as string],
      idsFor: (name) => (name ? ids[name] : undefined),
      emails: seeded.emails,
    };
    writes = await installWriteLog(t.database);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('reads the operations from the document', () => {
    expect(operations.length).toBeGreaterThanOrEqual(29);
  });

  it('sees what a request commits, and nothing of a refused one (the write check is not vacuous)', async () => {
    const headers = { 'x-api-key': seeded.pools.keys.full };
    const created = await t.app.inject({ method: 'POST', url: '/public/v1/job-listings', headers, payload: { position: 'Probe', positionType: 'FULL_TIME', workPlaceType: 'REMOTE' } });
    expect(created.statusCode).toBe(201);
    expect(await writes.drain()).toContainEqual({ table: 'job_listings', companyId: seeded.ownCompanyId });
    const refused = await t.app.inject({ method: 'POST', url: '/public/v1/job-listings', headers, payload: { position: '', positionType: 'FULL_TIME', workPlaceType: 'REMOTE' } });
    expect(refused.statusCode).toBe(422);
    expect(await writes.drain()).toEqual([]);
  });

  it(`answers every request as documented (${RUNS} requests, seed ${SEED})`, async () => {
    const failures = new FailureClasses();
    const perOperation = Math.max(1, Math.ceil(RUNS / operations.length));
    const summary: string[] = [];
    let requestMs = 0;
    let drainMs = 0;

    for (const [index, op] of operations.entries()) {
      const statuses = new Map<number, number>();
      const opStarted = performance.now();
      await fc.assert(
        fc.asyncProperty(requestFor(op, seeded.pools, ctx), async (request) => {
          let answer;
          const started = performance.now();
          try {
            const res = await t.app.inject({ method: request.method as 'GET', url: request.url, headers: request.headers, payload: request.payload });
            answer = { statusCode: res.statusCode, headers: res.headers as Record<string, unknown>, body: res.body };
          } catch (error) {
            answer = { statusCode: 0, headers: {}, body: `inject threw ${String(error)}` };
          }
          requestMs += performance.now() - started;
          const readStarted = performance.now();
          const written = await writes.drain();
          drainMs += performance.now() - readStarted;
          const requestId = String(answer.headers['x-request-id'] ?? '');
          const observation = {
            op,
            request,
            answer,
            changed: [...new Set(written.map((w) => w.table))],
            otherChanged: [...new Set(written.filter((w) => w.companyId === seeded.otherCompanyId).map((w) => w.table))],
            serverError: serverErrors.get(requestId),
          };
          statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
          failures.add(observation, violationsOf(observation, seeded.otherIds, OTHER_MARKER));
        }),
        // The property records violations instead of failing, so one run finds every class of
        // failure rather than stopping (and shrinking) at the first.
        { seed: SEED + index, numRuns: perOperation, endOnFailure: true },
      );
      const counts = [...statuses.entries()].sort(([a], [b]) => a - b).map(([status, n]) => `${status}x${n}`);
      summary.push(`${op.id.padEnd(66)} ${String(Math.round(performance.now() - opStarted)).padStart(6)} ms  ${counts.join(' ')}`);
    }

    summary.push(`requests ${Math.round(requestMs)} ms, write log ${Math.round(drainMs)} ms`);
    if (process.env.FUZZ_VERBOSE) console.log(summary.join('\n'));
    if (failures.size > 0) {
      expect.fail(`${failures.size} kinds of failure (replay with FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}):\n\n${failures.report()}\n\nStatuses per operation:\n${summary.join('\n')}`);
    }
  }, 900_000);
});
