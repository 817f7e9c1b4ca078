// Prometheus metrics of one process (an API server or a worker), in a registry of its own (tests run
// many apps in one process). Built once by the entry file and passed to the HTTP layer and the
// delivery worker. The connection pools' figures are read at scrape time (they are in memory); the
// backlogs live in the database and are read in the background (see createMetrics): a scrape never
// waits for the database.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface PoolStats {
  max: number;
  total: number;
  idle: number;
  waiting: number;
  /** Since start: connections handed out, and the seconds callers waited for them. */
  acquired: number;
  waitSeconds: number;
}

export interface Backlog {
  outboxEvents: number;
  outboxOldestSeconds: number;
  pendingDeliveries: number;
  pendingOldestSeconds: number;
}

export interface MetricsSources {
  pool?: (() => PoolStats | undefined) | undefined;
  backlog?: (() => Promise<Backlog>) | undefined;
}

/** What the delivery worker records; a no-op stand-in serves callers that measure nothing. */
export interface DeliveryMetrics {
  attempt(outcome: 'delivered' | 'retrying' | 'failed' | 'lease_lost', attempt: number): void;
  /** Seconds from the event to the receiver's 2xx. */
  delivered(latencySeconds: number): void;
}

export const noDeliveryMetrics: DeliveryMetrics = { attempt() {}, delivered() {} };

export interface Metrics {
  registry: Registry;
  httpRequest(labels: { method: string; route: string; status: number }, seconds: number): void;
  authFailure(route: string): void;
  rateLimited(route: string): void;
  deliveries: DeliveryMetrics;
  /** Adds the database-backed and pool figures (once the database is open). */
  setSources(sources: MetricsSources): void;
  /**
   * Reads the backlog now (after the read in flight, if any), as the background refresh does:
   * for a figure wanted at once (tests). Settles when that read does.
   */
  refreshBacklog(): Promise<void>;
  /** Stops the background refresh. */
  close(): void;
}

/**
 * The backlog is read every BACKLOG_REFRESH_MS once /metrics has been scraped, one read at a time.
 * A read that fails, or has not answered within BACKLOG_TIMEOUT_MS, makes the backlog unknown:
 * its gauges are left out of the scrape (not 0, which would say that nothing waits) until a read
 * answers in time again. A figure older than BACKLOG_MAX_AGE_MS is never shown.
 */
const BACKLOG_REFRESH_MS = 5_000;
const BACKLOG_TIMEOUT_MS = 2_000;
const BACKLOG_MAX_AGE_MS = 3 * BACKLOG_REFRESH_MS;

export function createMetrics(options: { process: 'api' | 'worker' }): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ process: options.process });
  collectDefaultMetrics({ register: registry });
  const sources: MetricsSources = {};

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const authFailures = new Counter({
    name: 'api_auth_failures_total',
    help: 'Requests refused with 401 (missing, malformed, unknown, expired or revoked API key or token).',
    labelNames: ['route'] as const,
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: 'rate_limit_refusals_total',
    help: 'Requests refused with 429 (rate limit).',
    labelNames: ['route'] as const,
    registers: [registry],
  });
  const attempts = new Counter({
    name: 'webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts by outcome (delivered, retrying, failed for good, lease_lost) and attempt number (10 = 10th or later).',
    labelNames: ['outcome', 'attempt'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'webhook_delivery_latency_seconds',
    help: 'Seconds from an event to its receiver acknowledging it (successful deliveries).',
    buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600, 21600, 86400],
    registers: [registry],
  });

  // The last backlog read in time, with when it answered (performance.now()).
  let known: { backlog: Backlog; at: number } | undefined;
  let reading: Promise<void> | undefined;
  let loop: NodeJS.Timeout | undefined;
  let closed = false;
  const readBacklog = (): Promise<void> => {
    if (reading || !sources.backlog) return reading ?? Promise.resolve();
    let late = false;
    const timeout = setTimeout(() => {
      late = true;
      known = undefined;
    }, BACKLOG_TIMEOUT_MS).unref();
    reading = sources.backlog().then(
      (backlog) => void (known = late ? undefined : { backlog, at: performance.now() }),
      () => void (known = undefined),
    );
    // A read still waiting (on a lock) holds one connection; the next starts only once it is over.
    reading = reading.finally(() => {
      clearTimeout(timeout);
      reading = undefined;
    });
    return reading;
  };
  const backlogGauge = (name: string, help: string, pick: (backlog: Backlog) => number) => {
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        if (!loop && !closed && sources.backlog) {
          loop = setInterval(() => void readBacklog(), BACKLOG_REFRESH_MS).unref();
          void readBacklog();
        }
        if (known && performance.now() - known.at <= BACKLOG_MAX_AGE_MS) this.set(pick(known.backlog));
        else this.remove({});
      },
    });
  };
  backlogGauge('webhook_outbox_events', 'Events recorded but not yet fanned out to subscriptions.', (b) => b.outboxEvents);
  backlogGauge('webhook_outbox_oldest_age_seconds', 'Age of the oldest event not yet fanned out (0 when none).', (b) => b.outboxOldestSeconds);
  backlogGauge('webhook_deliveries_pending', 'Webhook deliveries waiting for a (first or next) attempt.', (b) => b.pendingDeliveries);
  backlogGauge('webhook_deliveries_pending_oldest_age_seconds', 'Age of the oldest pending delivery (0 when none).', (b) => b.pendingOldestSeconds);

  const poolGauge = (name: string, help: string, pick: (stats: PoolStats) => number, type: 'gauge' | 'counter' = 'gauge') => {
    const collect = function (this: Gauge | Counter) {
      const stats = sources.pool?.();
      if (!stats) return;
      this.reset();
      if (this instanceof Gauge) this.set(pick(stats));
      else this.inc(pick(stats));
    };
    if (type === 'gauge') new Gauge({ name, help, registers: [registry], collect });
    else new Counter({ name, help, registers: [registry], collect });
  };
  poolGauge('db_pool_max_connections', 'Size limit of the PostgreSQL connection pools (writes, reads, and the list statements\' pool, DB_POOL_SIZE each).', (s) => s.max);
  poolGauge('db_pool_connections', 'Open PostgreSQL connections (in use and idle).', (s) => s.total);
  poolGauge('db_pool_idle_connections', 'Open PostgreSQL connections not in use.', (s) => s.idle);
  poolGauge('db_pool_waiting_requests', 'Queries waiting for a free connection right now.', (s) => s.waiting);
  poolGauge('db_pool_acquisitions_total', 'Connections handed out by the pool since start.', (s) => s.acquired, 'counter');
  poolGauge('db_pool_wait_seconds_total', 'Seconds spent waiting for a pool connection since start (divide by acquisitions for the mean).', (s) => s.waitSeconds, 'counter');

  return {
    registry,
    httpRequest(labels, seconds) {
      const values = { method: labels.method, route: labels.route, status: String(labels.status) };
      requests.inc(values);
      duration.observe(values, seconds);
    },
    authFailure: (route) => authFailures.inc({ route }),
    rateLimited: (route) => rateLimited.inc({ route }),
    deliveries: {
      attempt: (outcome, attempt) => attempts.inc({ outcome, attempt: String(Math.min(attempt, 10)) }),
      delivered: (seconds) => latency.observe(Math.max(0, seconds)),
    },
    setSources(next) {
      Object.assign(sources, next);
    },
    async refreshBacklog() {
      await reading;
      await readBacklog();
    },
    close() {
      closed = true;
      clearInterval(loop);
    },
  };
}
