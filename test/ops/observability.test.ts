// What an operator watches: /metrics (Prometheus text) changing as requests and deliveries happen,
// one access line per request with no personal data or secrets in any log line, and the security
// headers (including a CSP under which /docs still loads everything from this origin).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMetricsListener } from '../../src/http/metrics.ts';
import { inlineScriptHashes } from '../../src/http/security-headers.ts';
import { recordTestEvent } from '../helpers/events.ts';
import { runWebhookWorkerOnce, type WorkerLog } from '../../src/modules/webhooks/delivery-worker.ts';
import { createWebhookTransport, type WebhookTransport } from '../../src/modules/webhooks/transport.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { createMetrics } from '../../src/shared/metrics.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';

const EMAIL = 'ada.lovelace@example.com';

let transport: WebhookTransport;
let receiver: Receiver;

beforeAll(async () => {
  transport = createWebhookTransport({ allowLocal: true });
  receiver = await startReceiver();
});
afterAll(async () => {
  await transport.close();
  await receiver.close();
});

/** Parses Prometheus text into "name{labels}" -> value (labels as written, in order). */
function parseMetrics(text: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    values.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return values;
}

/** The sum of every sample of `name` whose labels include all of `labels`. */
function sample(values: Map<string, number>, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const [key, value] of values) {
    const brace = key.indexOf('{');
    if ((brace < 0 ? key : key.slice(0, brace)) !== name) continue;
    if (Object.entries(labels).every(([label, expected]) => key.includes(`${label}="${expected}"`))) sum += value;
  }
  return sum;
}

async function scrape(t: TestApp, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseMetrics(res.body);
}

const collectingLog = () => {
  const lines: Array<{ level: string; fields: Record<string, unknown>; msg?: string }> = [];
  const at = (level: string) => (fields: object, msg?: string) => void lines.push({ level, fields: fields as Record<string, unknown>, msg });
  const log: WorkerLog = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { log, lines };
};

describe('/metrics', () => {
  let t: TestApp;
  let tenant: Tenant;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '5' });
    tenant = await t.tenant();
  });
  afterAll(async () => t?.close());

  it('counts requests by route and status, auth failures and rate-limit refusals; has latency histograms and process figures', async () => {
    const before = await scrape(t);
    expect(sample(before, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(before, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);

    for (let i = 0; i < 3; i++) {
      expect((await t.app.inject({ url: '/public/v1/enums', headers: tenant.headers })).statusCode).toBe(200);
    }
    expect((await t.app.inject({ url: '/public/v1/enums', headers: { 'x-api-key': 'rk_live_wrong' } })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/public/v1/enums' })).statusCode).toBe(401);
    // Limit 5 a minute: 3 used, 2 more, then refused.
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await t.app.inject({ url: '/public/v1/enums', headers: tenant.headers })).statusCode);
    expect(statuses).toEqual([200, 200, 429]);
    expect((await t.app.inject({ url: '/no/such/route' })).statusCode).toBe(404);

    const after = await scrape(t);
    const delta = (name: string, labels: Record<string, string> = {}) => sample(after, name, labels) - sample(before, name, labels);
    const enums = { route: '/public/v1/enums', method: 'GET' };
    expect(delta('http_requests_total', { ...enums, status: '200' })).toBe(5);
    expect(delta('http_requests_total', { ...enums, status: '401' })).toBe(2);
    expect(delta('http_requests_total', { ...enums, status: '429' })).toBe(1);
    // Unknown paths share one label value: a scanner cannot blow up the number of series.
    expect(delta('http_requests_total', { route: '(unmatched)', status: '404' })).toBe(1);
    expect([...after.keys()].some((key) => key.includes('/no/such/route'))).toBe(false);
    expect(delta('http_request_duration_seconds_count', { ...enums, status: '200' })).toBe(5);
    expect(sample(after, 'http_request_duration_seconds_bucket', { ...enums, status: '200', le: '+Inf' })).toBe(
      sample(after, 'http_requests_total', { ...enums, status: '200' }),
    );
    expect(delta('api_auth_failures_total', { route: '/public/v1/enums' })).toBe(2);
    expect(delta('rate_limit_refusals_total', { route: '/public/v1/enums' })).toBe(1);
    if (t.databaseUrl) {
      // DB_POOL_SIZE 5: the write, read and list statements' pools, 5 each at most.
      expect(sample(after, 'db_pool_max_connections')).toBe(15);
      expect(sample(after, 'db_pool_acquisitions_total')).toBeGreaterThan(sample(before, 'db_pool_acquisitions_total'));
      expect(after.has('db_pool_wait_seconds_total{process="api"}')).toBe(true);
    }
  });

  it('shows the outbox and pending backlog with their ages, then deliveries by outcome and attempt, and the event-to-receipt latency', async () => {
    const other = await buildTestApp(); // its own rate limit and database rows
    try {
      const owner = await other.tenant();
      const subscription = await other.app.inject({
        method: 'POST',
        url: '/public/v1/webhooks',
        headers: owner.headers,
        payload: { url: `${receiver.origin}/metrics-hook`, events: ['job_listing.updated'] },
      });
      expect(subscription.statusCode).toBe(201);
      const occurredAt = other.clock.now();
      await other.ctx.db.transaction((tx) =>
        recordTestEvent(tx, { companyId: owner.companyId, type: 'job_listing.updated', data: {}, occurredAt }),
      );
      // The test clock runs with real time plus an offset: ages are compared to within a second.
      other.clock.advance(90_000);

      // The backlog is read in the background; each check below asks for a fresh read first.
      await other.metrics.refreshBacklog();
      const queued = await scrape(other);
      expect(sample(queued, 'webhook_outbox_events')).toBe(1);
      expect(sample(queued, 'webhook_outbox_oldest_age_seconds')).toBeCloseTo(90, -1);
      expect(sample(queued, 'webhook_deliveries_pending')).toBe(0);

      // The first attempt fails (500): a retry is pending.
      receiver.handler = () => ({ status: 500, body: 'down' });
      const { log, lines } = collectingLog();
      const deps = {
        db: other.ctx.db,
        clock: other.clock,
        secrets: other.ctx.secrets,
        transport,
        log,
        leaseMs: 60_000,
        concurrency: 5,
        random: () => 0.5,
        metrics: other.metrics.deliveries,
      };
      await runWebhookWorkerOnce(deps);
      await other.metrics.refreshBacklog();
      const retrying = await scrape(other);
      expect(sample(retrying, 'webhook_outbox_events')).toBe(0);
      expect(sample(retrying, 'webhook_deliveries_pending')).toBe(1);
      expect(sample(retrying, 'webhook_delivery_attempts_total', { outcome: 'retrying', attempt: '1' })).toBe(1);
      expect(sample(retrying, 'webhook_delivery_latency_seconds_count')).toBe(0);
      // Failures at warn, with the subscription.
      expect(lines.filter((line) => line.level === 'warn')).toEqual([
        expect.objectContaining({ fields: expect.objectContaining({ subscriptionId: subscription.json().id, statusCode: 500 }) }),
      ]);

      other.clock.advance(60 * 60_000); // past the first retry delay
      await other.metrics.refreshBacklog();
      expect(sample(await scrape(other), 'webhook_deliveries_pending_oldest_age_seconds')).toBeCloseTo(3600, -1);
      receiver.handler = () => ({ status: 200, body: 'ok' });
      await runWebhookWorkerOnce(deps);
      await other.metrics.refreshBacklog();
      const delivered = await scrape(other);
      expect(sample(delivered, 'webhook_deliveries_pending')).toBe(0);
      expect(sample(delivered, 'webhook_deliveries_pending_oldest_age_seconds')).toBe(0);
      expect(sample(delivered, 'webhook_delivery_attempts_total', { outcome: 'delivered', attempt: '2' })).toBe(1);
      expect(sample(delivered, 'webhook_delivery_latency_seconds_count')).toBe(1);
      // Event at occurredAt, receipt 90 s + 1 h later (test clock).
      expect(sample(delivered, 'webhook_delivery_latency_seconds_sum')).toBeCloseTo(3690, -1);
      // A routine success is at debug only.
      expect(lines.filter((line) => line.msg === 'webhook delivered').map((line) => line.level)).toEqual(['debug']);
    } finally {
      receiver.handler = () => ({ status: 200, body: 'ok' });
      await other.close();
    }
  });

  it('asks for the token when METRICS_TOKEN is set, and is not on the API port when METRICS_PORT is', async () => {
    const guarded = await buildTestApp({ METRICS_TOKEN: 'scrape-secret' });
    try {
      const refused = await guarded.app.inject({ url: '/metrics' });
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({ status: 401, error: 'UNAUTHORIZED' });
      expect((await guarded.app.inject({ url: '/metrics', headers: { authorization: 'Bearer wrong' } })).statusCode).toBe(401);
      await scrape(guarded, { authorization: 'Bearer scrape-secret' });
    } finally {
      await guarded.close();
    }
    const separate = await buildTestApp({ METRICS_PORT: '0' });
    try {
      expect((await separate.app.inject({ url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await separate.close();
    }
    // The listener of its own (the worker's, or the server's with METRICS_PORT).
    const metrics = createMetrics({ process: 'worker' });
    metrics.deliveries.attempt('delivered', 1);
    const server = await startMetricsListener(metrics, { port: 0, host: '127.0.0.1', token: 'tok' });
    try {
      const port = (server.address() as { port: number }).port;
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(401);
      const res = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: 'Bearer tok' } });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(sample(parseMetrics(text), 'webhook_delivery_attempts_total', { outcome: 'delivered', process: 'worker' })).toBe(1);
      expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    } finally {
      server.close();
    }
  });
});

describe('logs', () => {
  let t: TestApp;
  let tenant: Tenant;
  beforeAll(async () => {
    t = await buildTestApp({ LOG_LEVEL: 'trace' }, { captureLogs: true });
    tenant = await t.tenant();
  });
  afterAll(async () => t?.close());

  it('writes one access line per request: method, route, status, duration, request id, company, key, error code', async () => {
    const start = t.logs().length;
    const res = await t.app.inject({
      url: '/public/v1/enums',
      headers: { ...tenant.headers, 'x-request-id': 'req-one-line' },
    });
    expect(res.statusCode).toBe(200);
    const lines = t.logs().slice(start).filter((line) => line.reqId === 'req-one-line');
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({ msg: 'request', method: 'GET', route: '/public/v1/enums', status: 200, companyId: tenant.companyId });
    expect(line!.keyId).toEqual(expect.any(String));
    expect(line!.durationMs).toEqual(expect.any(Number));

    await t.app.inject({ url: '/public/v1/candidates/not-a-uuid', headers: { ...tenant.headers, 'x-request-id': 'req-error' } });
    const error = t.logs().filter((l) => l.reqId === 'req-error');
    expect(error).toHaveLength(1);
    expect(error[0]).toMatchObject({ status: 422, error: 'VALIDATION_ERROR', route: '/public/v1/candidates/:id' });

    await t.app.inject({ url: '/public/v1/enums', headers: { 'x-request-id': 'req-anon' } });
    expect(t.logs().filter((l) => l.reqId === 'req-anon')).toEqual([expect.objectContaining({ status: 401, error: 'UNAUTHORIZED' })]);
  });

  it('never logs a secret, an API key or an e-mail address, even with every level on', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/public/v1/candidates/import',
      headers: tenant.headers,
      payload: { candidates: [{ firstName: 'Ada', lastName: 'Lovelace', email: EMAIL }] },
    });
    expect(created.statusCode).toBe(200);
    // A search for the address, as sent by a client, and a bad request echoing it.
    await t.app.inject({ url: `/public/v1/candidates?q=${encodeURIComponent(EMAIL)}`, headers: tenant.headers });
    await t.app.inject({ url: `/public/v1/candidates?q=ada&email=${EMAIL}`, headers: tenant.headers });
    await t.app.inject({ method: 'POST', url: '/public/v1/candidates/import', headers: tenant.headers, payload: { candidates: [{ email: EMAIL }] } });
    const hook = await t.app.inject({
      method: 'POST',
      url: '/public/v1/webhooks',
      headers: tenant.headers,
      payload: { url: `${receiver.origin}/log-hook`, events: ['candidate.created'] },
    });
    expect(hook.statusCode).toBe(201);
    const secret = (hook.json() as { secret: string }).secret;
    const rotated = await t.app.inject({ method: 'POST', url: `/public/v1/webhooks/${hook.json().id}/rotate-secret`, headers: tenant.headers });
    // A logger used directly with personal data in the message and the fields.
    t.app.log.info({ candidate: { email: EMAIL } }, `imported ${EMAIL}`);

    const text = t.logs().map((line) => JSON.stringify(line)).join('\n');
    expect(text.length).toBeGreaterThan(0);
    expect(text).not.toContain('ada.lovelace');
    expect(text).not.toContain(tenant.apiKey);
    expect(text).not.toContain(secret);
    expect(text).not.toContain((rotated.json() as { secret: string }).secret);
    expect(text).not.toContain('whsec_');
    expect(text).toContain('q=%5Bredacted%5D');
    expect(text).toContain('[email]');
  });

  it('writes JSON lines when stdout is not a terminal (pino-pretty is used only on a terminal)', () => {
    const lines: string[] = [];
    const logger = createLogger({ logLevel: 'info' }, 'api', { write: (line: string) => void lines.push(line) });
    logger.info({ who: EMAIL }, 'hello');
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'hello', who: '[email]', name: 'api', level: 30 });
  });
});

describe('security headers', () => {
  let t: TestApp;
  let tenant: Tenant;
  beforeAll(async () => {
    t = await buildTestApp();
    tenant = await t.tenant();
  });
  afterAll(async () => t?.close());

  it('are on every response: API answers, errors, health, the OpenAPI document', async () => {
    for (const [url, headers] of [
      ['/public/v1/enums', tenant.headers],
      ['/public/v1/enums', {}],
      ['/no/such/route', {}],
      ['/healthz', {}],
      ['/openapi.json', {}],
      // Answered by the OAuth provider on the raw response, past Fastify's reply.
      ['/oauth2/.well-known/openid-configuration', {}],
    ] as const) {
      const res = await t.app.inject({ url, headers });
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(res.headers['content-security-policy'], url).toContain("default-src 'self'");
      expect(res.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
      expect(res.headers['content-security-policy'], url).not.toMatch(/https?:\/\//);
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
      // Plain http in development: no HSTS, no upgrade of requests.
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it('let /docs load: every script from this origin, the inline start-up script allowed by its hash, no unsafe-inline script', async () => {
    const redirect = await t.app.inject({ url: '/docs' });
    const pageUrl = new URL((redirect.headers.location as string | undefined) ?? '/docs', 'http://localhost/docs');
    const page = await t.app.inject({ url: pageUrl.pathname });
    expect(page.statusCode).toBe(200);
    const csp = page.headers['content-security-policy'] as string;
    const scriptSrc = csp.split(';').map((part) => part.trim()).find((part) => part.startsWith('script-src'))!;
    expect(scriptSrc).not.toContain('unsafe-inline');
    const hashes = inlineScriptHashes(page.body);
    expect(hashes.length).toBeGreaterThan(0);
    for (const hash of hashes) expect(scriptSrc).toContain(hash);
    for (const [, src] of page.body.matchAll(/<script[^>]+src="([^"]+)"/g)) {
      const url = new URL(src!, pageUrl);
      expect(url.origin).toBe('http://localhost'); // 'self'
      const script = await t.app.inject({ url: url.pathname });
      expect(script.statusCode).toBe(200);
      expect(script.headers['content-type']).toMatch(/javascript/);
    }
    // The document the page loads is on this origin too (connect-src 'self').
    expect(page.body).toContain('"/openapi.json"');
    expect(csp).toContain("connect-src 'self'");
  });

  it('add HSTS in production mode (behind TLS)', async () => {
    const production = await buildTestApp({ MODE: 'production', WEBHOOK_ALLOW_LOCAL: 'false' });
    try {
      const res = await production.app.inject({ url: '/healthz', headers: { 'x-forwarded-proto': 'https' } });
      expect(res.headers['strict-transport-security']).toMatch(/max-age=31536000/);
      expect(res.headers['content-security-policy']).toContain('upgrade-insecure-requests');
    } finally {
      await production.close();
    }
  });
});

