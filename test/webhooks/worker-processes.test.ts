// Real worker processes (`node src/worker.ts`) sharing one PostgreSQL: killed mid-burst and
// restarted, nothing is lost; two at once, nothing is sent twice. PGlite is single-process, so this
// runs only with DATABASE_URL.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { createCompany } from '../../src/modules/companies/service.ts';
import { ALL_SCOPES } from '../../src/modules/api-keys/scopes.ts';
import { recordTestEvent } from '../helpers/events.ts';
import { createSubscription } from '../../src/modules/webhooks/service.ts';
import { createWebhookTransport, type WebhookTransport } from '../../src/modules/webhooks/transport.ts';
import { systemClock } from '../../src/shared/clock.ts';
import type { ServiceContext } from '../../src/shared/context.ts';
import { createSecretBox, parseEncryptionKey } from '../../src/shared/secret-box.ts';
import { openTestDatabase, TEST_ENCRYPTION_KEY, type TestDatabase } from '../helpers/test-app.ts';
import { appendChildLogLines } from '../helpers/suite-log.ts';
import { eventually, startReceiver, type Receiver } from './receiver.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BURST = 150;

interface Worker {
  child: ChildProcess;
  output: string[];
  /** Parsed JSON log lines. */
  lines(): Array<Record<string, unknown>>;
}

describe.skipIf(!process.env.DATABASE_URL)('worker processes on one PostgreSQL', () => {
  let testDb: TestDatabase;
  let ctx: ServiceContext;
  let transport: WebhookTransport;
  let receiver: Receiver;
  const workers: Worker[] = [];

  beforeAll(async () => {
    testDb = await openTestDatabase();
    ctx = { db: testDb.database.db, clock: systemClock, secrets: createSecretBox(parseEncryptionKey(TEST_ENCRYPTION_KEY)) };
    transport = createWebhookTransport({ allowLocal: true });
    receiver = await startReceiver();
  });

  afterEach(async (context) => {
    // A failing test shows what the workers said.
    if (context.task.result?.state === 'fail') {
      for (const worker of workers) console.error(`worker ${worker.child.pid}:\n${worker.output.join('')}`);
    }
    await Promise.all(workers.splice(0).map((worker) => kill(worker, 'SIGTERM')));
  });

  afterAll(async () => {
    await transport?.close();
    await receiver?.close();
    await testDb?.drop();
  });

  function startWorker(logLevel = 'warn', settings: Record<string, string> = { WEBHOOK_CONCURRENCY: '8' }): Worker {
    const child = spawn(process.execPath, ['src/worker.ts'], {
      cwd: ROOT,
      // Not the test's own environment: Vitest sets variables (BASE_URL=/) the worker would refuse.
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: testDb.url,
        ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        WEBHOOK_ALLOW_LOCAL: 'true',
        WEBHOOK_POLL_MS: '50',
        // Short, so a killed worker's deliveries are taken over within the test.
        WEBHOOK_LEASE_SECONDS: '2',
        LOG_LEVEL: logLevel,
        MODE: 'development',
        ...settings,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const worker: Worker = {
      child,
      output,
      lines: () =>
        output
          .join('')
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Record<string, unknown>),
    };
    child.on('exit', (code, signal) => {
      appendChildLogLines(output.join(''));
      if (code !== 0 && signal === null) output.push(`exited with code ${code}`);
    });
    workers.push(worker);
    return worker;
  }

  async function kill(worker: Worker, signal: NodeJS.Signals): Promise<void> {
    if (worker.child.exitCode !== null || worker.child.signalCode !== null) return;
    const exited = once(worker.child, 'exit');
    worker.child.kill(signal);
    const timer = setTimeout(() => worker.child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }

  async function setUp(path: string): Promise<{ companyId: string; eventIds: string[] }> {
    const company = await createCompany(ctx, { name: `Burst ${path}` });
    await createSubscription(ctx, transport, { companyId: company.id, scopes: ALL_SCOPES }, {
      url: `${receiver.origin}${path}`,
      events: ['application.created'],
    });
    return { companyId: company.id, eventIds: [] };
  }

  async function burst(companyId: string, count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i += 25) {
      await ctx.db.transaction(async (tx) => {
        for (let j = i; j < Math.min(count, i + 25); j++) {
          ids.push((await recordTestEvent(tx, { companyId, type: 'application.created', data: { n: j }, occurredAt: new Date() })).id);
        }
      });
    }
    return ids;
  }

  function idsReceivedAt(path: string): string[] {
    return receiver.requests.filter((r) => r.path === path).map((r) => r.headers['webhook-id'] as string);
  }

  async function undelivered(companyId: string): Promise<number> {
    const [row] = await queryRows<{ n: number }>(
      ctx.db,
      sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE company_id = ${companyId} AND status <> 'DELIVERED'`,
    );
    const [events] = await queryRows<{ n: number }>(
      ctx.db,
      sql`SELECT count(*)::int AS n FROM events WHERE company_id = ${companyId} AND dispatched_at IS NULL`,
    );
    return row.n + events.n;
  }

  it('runs on the pinned Node', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
  });

  it('a worker killed mid-burst loses nothing: after a restart every event is delivered at least once', async () => {
    const { companyId } = await setUp('/killed');
    // Slow answers keep several sends in flight at the moment of the kill.
    receiver.handler = () => ({ status: 200, body: 'ok', delayMs: 15 });
    const eventIds = await burst(companyId, BURST);

    const first = startWorker();
    await eventually(() => idsReceivedAt('/killed').length >= 30, 15_000, 'the first worker to be mid-burst');
    await kill(first, 'SIGKILL');
    const atKill = new Set(idsReceivedAt('/killed'));
    expect(atKill.size).toBeLessThan(BURST); // really mid-burst

    startWorker();
    await eventually(async () => (await undelivered(companyId)) === 0, 20_000, 'every delivery to be DELIVERED');

    const received = idsReceivedAt('/killed');
    expect(new Set(received)).toEqual(new Set(eventIds));
    // Only sends that were in flight when the worker died may arrive twice.
    const duplicates = received.length - new Set(received).size;
    expect(duplicates).toBeLessThanOrEqual(8);
    for (const id of new Set(received)) expect(received.filter((r) => r === id).length).toBeLessThanOrEqual(2);
  });

  it('a worker killed mid-burst at full speed (default concurrency, batched outcomes) loses nothing', async () => {
    const { companyId } = await setUp('/killed-fast');
    receiver.handler = () => ({ status: 204, body: '' });
    const count = 3_000;
    const eventIds = (
      await queryRows<{ id: string }>(
        ctx.db,
        sql`INSERT INTO events (id, company_id, type, data, occurred_at)
            SELECT gen_random_uuid(), ${companyId}::uuid, 'application.created', jsonb_build_object('n', n), now()
            FROM generate_series(1, ${count}::int) AS n RETURNING id`,
      )
    ).map((row) => row.id);

    // Default concurrency: the settings a worker runs at full rate with.
    const first = startWorker('warn', {});
    await eventually(() => idsReceivedAt('/killed-fast').length >= 600, 30_000, 'the first worker to be mid-burst');
    await kill(first, 'SIGKILL');
    const atKill = new Set(idsReceivedAt('/killed-fast'));
    expect(atKill.size).toBeLessThan(count); // really mid-burst

    startWorker('warn', {});
    await eventually(async () => (await undelivered(companyId)) === 0, 60_000, 'every delivery to be DELIVERED');

    const received = idsReceivedAt('/killed-fast');
    expect(new Set(received)).toEqual(new Set(eventIds));
    // Only sends in flight (or sent, their outcome not yet written) when the worker died may arrive
    // twice: at most the per-subscription cap (default 50) of them.
    const duplicates = received.length - new Set(received).size;
    expect(duplicates).toBeLessThanOrEqual(50);
    for (const id of new Set(received)) expect(received.filter((r) => r === id).length).toBeLessThanOrEqual(2);
    // Each delivery finished once, its attempts written: one per send whose outcome was recorded.
    const [attempts] = await queryRows<{ deliveries: number; attempts: number }>(
      ctx.db,
      sql`SELECT count(DISTINCT d.id)::int AS deliveries, count(a.id)::int AS attempts
          FROM webhook_deliveries d LEFT JOIN webhook_delivery_attempts a ON a.delivery_id = d.id
          WHERE d.company_id = ${companyId}`,
    );
    expect(attempts.deliveries).toBe(count);
    expect(attempts.attempts).toBeGreaterThanOrEqual(count);
    expect(attempts.attempts).toBeLessThanOrEqual(received.length);
  });

  it('two workers deliver a burst with no event sent twice', async () => {
    const { companyId } = await setUp('/shared');
    receiver.handler = () => ({ status: 200, body: 'ok', delayMs: 5 });
    // Successes are logged at debug.
    const a = startWorker('debug');
    const b = startWorker('debug');
    const started = (w: Worker) => w.lines().some((line) => line.msg === 'webhook delivery worker started');
    await eventually(() => started(a) && started(b), 15_000, 'both workers to start');

    const eventIds = await burst(companyId, BURST);
    await eventually(async () => (await undelivered(companyId)) === 0, 20_000, 'every delivery to be DELIVERED');

    const received = idsReceivedAt('/shared');
    expect(received).toHaveLength(BURST);
    expect(new Set(received)).toEqual(new Set(eventIds));
    // Both took part.
    const deliveredBy = (w: Worker) => w.lines().filter((line) => line.msg === 'webhook delivered').length;
    // A worker logs a success after its outcome is written, and the line reaches this process
    // through a pipe: the database can say DELIVERED before the last lines arrive (CI once read
    // 141 of 150 here). Wait for them, then count exactly.
    await eventually(() => deliveredBy(a) + deliveredBy(b) >= BURST, 10_000, 'every success to be logged');
    expect(deliveredBy(a)).toBeGreaterThan(0);
    expect(deliveredBy(b)).toBeGreaterThan(0);
    expect(deliveredBy(a) + deliveredBy(b)).toBe(BURST);
    const [attempts] = await queryRows<{ n: number }>(
      ctx.db,
      sql`SELECT count(*)::int AS n FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
          WHERE d.company_id = ${companyId}`,
    );
    expect(attempts.n).toBe(BURST);
  });

  it('a worker stops cleanly on SIGTERM', async () => {
    const worker = startWorker('info');
    await eventually(() => worker.lines().some((line) => line.msg === 'webhook delivery worker started'), 15_000, 'start');
    const exited = once(worker.child, 'exit');
    worker.child.kill('SIGTERM');
    const [code] = await exited;
    expect(code).toBe(0);
  });
});
