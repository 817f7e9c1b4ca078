// What the delivery worker is given: built once per process (src/deps.ts hands DeliveryInput to
// startWebhookWorker), or by a test for a pass of its own.
import type { Config } from '../../../config.ts';
import type { Db } from '../../../db/client.ts';
import type { Clock } from '../../../shared/clock.ts';
import type { ServiceContext } from '../../../shared/context.ts';
import type { DeliveryMetrics } from '../../../shared/metrics.ts';
import type { SecretBox } from '../../../shared/secret-box.ts';
import type { WebhookTransport } from '../transport.ts';

/** The subset of a pino logger the worker uses (Fastify's app.log fits). */
export interface WorkerLog {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface WorkerDeps {
  db: Db;
  clock: Clock;
  /** Opens the stored (sealed) signing secrets. */
  secrets: SecretBox;
  transport: WebhookTransport;
  log: WorkerLog;
  /** How long a claimed delivery stays with its worker before another may take it over. */
  leaseMs: number;
  /** Deliveries sent at the same time. */
  concurrency: number;
  /**
   * Deliveries of one subscription in flight at once, across all workers (default 50), so one
   * company's slow endpoints cannot take every slot.
   */
  perSubscriptionConcurrency?: number;
  /**
   * Deliveries of one company in flight at once, across all workers (default: half of
   * `concurrency`), so one company's many hanging endpoints leave the other companies their slots.
   */
  perCompanyConcurrency?: number;
  /** The circuit breaker per subscription (default DEFAULT_CIRCUIT). */
  circuit?: CircuitSettings;
  /** Jitter source for the retry schedule. */
  random?: () => number;
  /** Attempts by outcome, and the time from event to receipt. */
  metrics?: DeliveryMetrics;
}

export const DEFAULT_PER_SUBSCRIPTION_CONCURRENCY = 50;

/** The company cap when none is set: half a worker's slots stay for the other companies. */
export function defaultCompanyConcurrency(concurrency: number): number {
  return Math.max(1, Math.ceil(concurrency / 2));
}

/**
 * An endpoint whose attempts fail `failures` times in a row (no answer in time, no connection, or
 * an answer other than 2xx) has its circuit opened: its deliveries wait `cooldownMs`, then one is
 * sent as a probe; a success closes the circuit, a failure opens it again. A hanging endpoint then
 * holds a slot for one probe per cool-down instead of its every delivery's attempts.
 */
export interface CircuitSettings {
  failures: number;
  cooldownMs: number;
}

export const DEFAULT_CIRCUIT: CircuitSettings = { failures: 5, cooldownMs: 60_000 };

/** What a process gives the delivery worker: built once by it (src/deps.ts), which also closes the transport. */
export interface DeliveryInput {
  db: Db;
  notifications?: ServiceContext['notifications'];
  config: Pick<
    Config,
    | 'webhookLeaseSeconds'
    | 'webhookConcurrency'
    | 'webhookSubscriptionConcurrency'
    | 'webhookCompanyConcurrency'
    | 'webhookCircuitFailures'
    | 'webhookCircuitCooldownSeconds'
    | 'webhookPollMs'
  >;
  clock: Clock;
  secrets: SecretBox;
  log: WorkerLog;
  metrics?: DeliveryMetrics;
  transport: WebhookTransport;
}

/** The worker's dependencies from the process's settings. */
export function deliveryDeps(input: DeliveryInput): WorkerDeps {
  return {
    db: input.db,
    clock: input.clock,
    secrets: input.secrets,
    transport: input.transport,
    metrics: input.metrics,
    log: input.log,
    leaseMs: input.config.webhookLeaseSeconds * 1000,
    concurrency: input.config.webhookConcurrency,
    perSubscriptionConcurrency: input.config.webhookSubscriptionConcurrency,
    perCompanyConcurrency: input.config.webhookCompanyConcurrency,
    circuit: { failures: input.config.webhookCircuitFailures, cooldownMs: input.config.webhookCircuitCooldownSeconds * 1000 },
  };
}
