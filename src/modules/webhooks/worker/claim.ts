// The worker's claim: a lease on up to `limit` due deliveries, within the fairness caps.
import { randomUUID } from 'node:crypto';
import { claimDueDeliveries, type ClaimedDelivery } from '../repo/claim.ts';
import { DEFAULT_CIRCUIT, DEFAULT_PER_SUBSCRIPTION_CONCURRENCY, defaultCompanyConcurrency, type WorkerDeps } from './worker-deps.ts';

export async function claimDeliveries(
  deps: Pick<WorkerDeps, 'db' | 'clock' | 'leaseMs' | 'concurrency' | 'perSubscriptionConcurrency' | 'perCompanyConcurrency' | 'circuit'>,
  limit: number,
  options: { inTransaction?: boolean } = {},
): Promise<ClaimedDelivery[]> {
  const now = deps.clock.now();
  return claimDueDeliveries(
    deps.db,
    {
      now,
      leaseUntil: new Date(now.getTime() + deps.leaseMs),
      token: randomUUID(),
      limit,
      perSubscription: deps.perSubscriptionConcurrency ?? DEFAULT_PER_SUBSCRIPTION_CONCURRENCY,
      perCompany: deps.perCompanyConcurrency ?? defaultCompanyConcurrency(deps.concurrency),
      circuitFailures: (deps.circuit ?? DEFAULT_CIRCUIT).failures,
    },
    options,
  );
}
