import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('webhook worker settings', () => {
  it('runs delivery inside the server by default only with the embedded database', () => {
    expect(loadConfig({}).webhookWorkerInServer).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/x' }).webhookWorkerInServer).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/x', WEBHOOK_WORKER_IN_SERVER: 'true' }).webhookWorkerInServer).toBe(true);
  });

  it('has sensible defaults', () => {
    expect(loadConfig({})).toMatchObject({ webhookPollMs: 1000, webhookLeaseSeconds: 60, webhookConcurrency: 200, webhookSubscriptionConcurrency: 50 });
    expect(loadConfig({})).toMatchObject({ webhookCompanyConcurrency: 100, webhookCircuitFailures: 5, webhookCircuitCooldownSeconds: 60 });
  });

  it('caps a company at half a worker’s slots unless told otherwise', () => {
    expect(loadConfig({ WEBHOOK_CONCURRENCY: '9' }).webhookCompanyConcurrency).toBe(5);
    expect(loadConfig({ WEBHOOK_CONCURRENCY: '9', WEBHOOK_COMPANY_CONCURRENCY: '9' }).webhookCompanyConcurrency).toBe(9);
  });

  it.each([
    ['WEBHOOK_POLL_MS', 'fast'],
    ['WEBHOOK_POLL_MS', '0'],
    ['WEBHOOK_LEASE_SECONDS', '0'],
    ['WEBHOOK_CONCURRENCY', '1000'],
    ['WEBHOOK_SUBSCRIPTION_CONCURRENCY', '0'],
    ['WEBHOOK_COMPANY_CONCURRENCY', '0'],
    ['WEBHOOK_COMPANY_CONCURRENCY', '201'],
    ['WEBHOOK_CIRCUIT_FAILURES', '0'],
    ['WEBHOOK_CIRCUIT_COOLDOWN_SECONDS', 'soon'],
    ['WEBHOOK_WORKER_IN_SERVER', 'maybe'],
  ])('refuses %s=%s naming the setting', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});
