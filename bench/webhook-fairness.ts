// The webhook fairness figure of `npm run bench` (group `fairness`): one company's 100
// subscriptions point at endpoints that accept the request and never answer, and keep getting
// events; another company's status moves are timed from the API's answer to the signed POST
// received. Both companies' receivers share one origin (one host and port), as they would behind a
// shared integration platform. Two workers deliver, as in the deployment the figure is about.
import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type pg from 'pg';

export interface FairnessBench {
  quick: boolean;
  /** The public API's base URL (…/public/v1). */
  api: string;
  /** The company whose receiver answers (its status moves are timed) and its API key. */
  healthy: { companyId: string; key: string };
  /** The company whose 100 receivers hang, and its API key. */
  hanging: { companyId: string; key: string };
  port: number;
  start(script: string, env: Record<string, string>): ChildProcess;
  withPg<T>(fn: (client: pg.Client) => Promise<T>): Promise<T>;
  figure(name: string, value: number | null, unit: string, goal: string, met: boolean | null, note?: string): void;
  log(message: string): void;
}

const HANGING_SUBSCRIPTIONS = 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface SharedOrigin {
  server: Server;
  /** webhook-id -> arrival times (performance.now()) of the healthy company's deliveries. */
  arrivals: Map<string, number[]>;
  /** Application ids seen in the healthy company's bodies -> first arrival. */
  byApplication: Map<string, number>;
  hangingRequests: number;
  close(): void;
}

/** `/hang/...` accepts and never answers; `/ok` answers 204 at once and records the arrival. */
function startSharedOrigin(port: number): Promise<SharedOrigin> {
  const sockets = new Set<Socket>();
  const origin: SharedOrigin = {
    server: undefined as unknown as Server,
    arrivals: new Map(),
    byApplication: new Map(),
    hangingRequests: 0,
    close() {
      for (const socket of sockets) socket.destroy();
      origin.server.close();
    },
  };
  origin.server = createServer((req, res) => {
    if (req.url?.startsWith('/hang')) {
      origin.hangingRequests++;
      req.resume();
      return;
    }
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      res.writeHead(204).end();
      const at = performance.now();
      const id = String(req.headers['webhook-id']);
      origin.arrivals.set(id, [...(origin.arrivals.get(id) ?? []), at]);
      const applicationId = (JSON.parse(body) as { data?: { application?: { id?: string } } }).data?.application?.id;
      if (applicationId && !origin.byApplication.has(applicationId)) origin.byApplication.set(applicationId, at);
    });
  });
  origin.server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) => origin.server.listen(port, '127.0.0.1', () => resolve(origin)));
}

async function subscribe(api: string, key: string, url: string): Promise<void> {
  const res = await fetch(`${api}/webhooks`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ url, events: ['application.status_changed'] }),
  });
  if (res.status !== 201) throw new Error(`webhook subscription: ${res.status} ${await res.text()}`);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export async function measureWebhookFairness(bench: FairnessBench): Promise<void> {
  const { api, healthy, hanging } = bench;
  const companies = [healthy.companyId, hanging.companyId];
  const clearSubscriptions = () => bench.withPg((c) => c.query('delete from webhook_subscriptions where company_id = any($1::uuid[])', [companies]));
  const origin = await startSharedOrigin(bench.port);
  const workers: ChildProcess[] = [];
  // Events of the hanging company written straight into the outbox, as a busy company's would be.
  const hangingEvents = (count: number) =>
    bench.withPg((c) =>
      c.query(
        `insert into events (id, company_id, type, data, occurred_at)
         select gen_random_uuid(), $1, 'application.status_changed', jsonb_build_object('hang', n), now()
         from generate_series(1, $2::int) as n`,
        [hanging.companyId, count],
      ),
    );
  try {
    await clearSubscriptions();
    const base = `http://127.0.0.1:${bench.port}`;
    for (let i = 0; i < HANGING_SUBSCRIPTIONS; i++) await subscribe(api, hanging.key, `${base}/hang/${i}`);
    await subscribe(api, healthy.key, `${base}/ok`);
    // Each worker's failed attempts are warnings: thousands here, not what is measured.
    for (let i = 0; i < 2; i++) workers.push(bench.start('src/worker.ts', { LOG_LEVEL: 'error' }));
    // Work off earlier runs' leftovers first (events fanned out to no one).
    const drainBy = Date.now() + 120_000;
    while (Date.now() < drainBy) {
      const left = await bench.withPg(async (c) => Number((await c.query('select count(*) from events where dispatched_at is null')).rows[0].count));
      if (left === 0) break;
      await sleep(250);
    }

    // The hanging company's backlog: 10 events, 1,000 deliveries, then 2 events a second throughout.
    await hangingEvents(10);
    const feeder = setInterval(() => void hangingEvents(1).catch(() => {}), 500);
    // Measured once its sends hang: every slot it may hold is held (a hundred with the defaults).
    const hangStart = performance.now();
    while (origin.hangingRequests < HANGING_SUBSCRIPTIONS && performance.now() - hangStart < 30_000) await sleep(50);

    const stages = new Map(
      await bench.withPg(async (c) =>
        (await c.query('select id, status from applications where company_id = $1 order by id limit 200', [healthy.companyId])).rows.map(
          (row: { id: string; status: string }) => [row.id, row.status] as const,
        ),
      ),
    );
    const ids = [...stages.keys()];
    // Not timed: the last application's move, awaited, so both workers are up and connected.
    const warmUp = ids[ids.length - 1];
    const warmStatus = stages.get(warmUp) === 'IN_REVIEW' ? 'INTERVIEW' : 'IN_REVIEW';
    const warm = await fetch(`${api}/applications/${warmUp}/status`, {
      method: 'PATCH',
      headers: { 'x-api-key': healthy.key, 'content-type': 'application/json' },
      body: JSON.stringify({ status: warmStatus }),
    });
    if (!warm.ok) throw new Error(`PATCH status: ${warm.status} ${await warm.text()}`);
    const warmBy = performance.now() + 30_000;
    while (!origin.byApplication.has(warmUp) && performance.now() < warmBy) await sleep(20);
    // Moves at a steady pace, not one after the other's delivery: a slow delivery must not slow
    // the moves down and so hide itself. Long enough to span a few send deadlines (10 s each).
    const moves = bench.quick ? 100 : Math.min(200, ids.length - 1);
    const gapMs = bench.quick ? 200 : 150;
    const answered = new Map<string, number>();
    const headers = { 'x-api-key': healthy.key, 'content-type': 'application/json' };
    for (let i = 0; i < moves; i++) {
      const id = ids[i];
      const status = stages.get(id) === 'IN_REVIEW' ? 'INTERVIEW' : 'IN_REVIEW';
      const res = await fetch(`${api}/applications/${id}/status`, { method: 'PATCH', headers, body: JSON.stringify({ status }) });
      answered.set(id, performance.now());
      if (!res.ok) throw new Error(`PATCH status: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      await sleep(gapMs);
    }
    const waitUntil = performance.now() + 30_000;
    while ([...answered.keys()].some((id) => !origin.byApplication.has(id)) && performance.now() < waitUntil) await sleep(100);
    clearInterval(feeder);

    const samples = [...answered].map(([id, at]) => (origin.byApplication.get(id) ?? Number.POSITIVE_INFINITY) - at).sort((a, b) => a - b);
    const delivered = samples.filter(Number.isFinite).length;
    const duplicates = [...origin.arrivals.values()].reduce((sum, times) => sum + times.length - 1, 0);
    const stats = await bench.withPg(async (c) => {
      const attempts = await c.query(
        `select d.company_id, count(*)::int as n, count(*) filter (where a.error = 'TIMEOUT')::int as timeouts,
                string_agg(distinct coalesce(a.error, a.status_code::text), ',') filter (where a.status_code is null or a.status_code >= 300) as failures
         from webhook_delivery_attempts a join webhook_deliveries d on d.id = a.delivery_id
         where d.company_id = any($1::uuid[]) and a.attempted_at > now() - interval '10 minutes' group by d.company_id`,
        [companies],
      );
      const by = new Map(attempts.rows.map((row: { company_id: string; n: number; timeouts: number; failures: string | null }) => [row.company_id, row]));
      // Circuits open now (the column is absent before the circuit breaker existed).
      const hasCircuit = (await c.query(`select 1 from information_schema.columns where table_name = 'webhook_subscriptions' and column_name = 'circuit_open_until'`)).rowCount;
      const open = hasCircuit
        ? Number((await c.query('select count(*) from webhook_subscriptions where company_id = $1 and circuit_open_until > now()', [hanging.companyId])).rows[0].count)
        : null;
      return { healthy: by.get(healthy.companyId), hanging: by.get(hanging.companyId), open };
    });
    const p50 = percentile(samples, 50);
    const p99 = percentile(samples, 99);
    const note =
      `${delivered} of ${moves} delivered, ${stats.healthy?.timeouts ?? 0} time-outs, ${duplicates} duplicates` +
      `${stats.healthy?.failures ? ` (failed attempts: ${stats.healthy.failures})` : ''}; ` +
      `hanging company: ${origin.hangingRequests} requests hung, ${stats.hanging?.timeouts ?? 0} time-outs recorded, ` +
      `circuits open at the end: ${stats.open ?? 'n/a'} of ${HANGING_SUBSCRIPTIONS}`;
    bench.figure('webhook_fair_p50_ms', Number.isFinite(p50) ? p50 : null, 'ms', 'reference', null, 'another company has 100 hanging subscriptions');
    bench.figure('webhook_fair_p99_ms', Number.isFinite(p99) ? p99 : null, 'ms', '< 1000', p99 < 1000 && delivered === moves, note);
  } finally {
    // Hung sends end when their sockets close; the workers record them and exit before the rows go.
    origin.close();
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.exitCode !== null) return resolve();
            worker.once('exit', () => resolve());
            worker.kill('SIGTERM');
          }),
      ),
    );
    await clearSubscriptions();
    // The hanging company's events left undelivered are not the next figure's work.
    await bench.withPg((c) => c.query('update events set dispatched_at = now() where company_id = $1 and dispatched_at is null', [hanging.companyId]));
  }
}
