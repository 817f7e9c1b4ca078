// The fan-out: outbox events become deliveries, one per subscription that wants each. The events
// are locked, read and marked through the outbox's functions (src/infra/outbox/repo.ts).
import { lockUndispatchedEvents, markEventDispatchFailed, markEventsDispatched, type EventRow } from '../../../infra/outbox/repo.ts';
import type { ClaimedDelivery } from '../repo/claim.ts';
import { insertDeliveriesForEvents, type EventToFanOut } from '../repo/fan-out.ts';
import { webhookBody } from '../signature.ts';
import { claimDeliveries } from './claim.ts';
import type { WorkerDeps, WorkerLog } from './worker-deps.ts';

export const FAN_OUT_BATCH = 100;
/** A poisoned event waits 30 s after its first failed fan-out, doubling up to an hour. */
const FAN_OUT_RETRY_BASE_MS = 30_000;
const FAN_OUT_RETRY_MAX_MS = 60 * 60 * 1000;

export function fanOutRetryDelayMs(failures: number): number {
  return Math.min(FAN_OUT_RETRY_BASE_MS * 2 ** Math.max(0, failures - 1), FAN_OUT_RETRY_MAX_MS);
}

const toFanOut = (event: EventRow): EventToFanOut => ({
  eventId: event.id,
  companyId: event.companyId,
  type: event.type,
  occurredAt: event.occurredAt,
  payload: webhookBody(event),
});

/**
 * Fans one batch of undispatched events out into deliveries and marks them dispatched, in one
 * transaction: each event gets a delivery per active subscription of its company that lists its
 * type and existed when it occurred. The batch is one set-based statement; if it fails, the batch
 * is rolled back and taken again with each event tried alone inside a savepoint, so the events that
 * can be fanned out are, and the one that cannot is set aside (retried later, with a growing wait)
 * instead of rolling the batch back on every poll forever. Returns the number of events handled
 * (fanned out or set aside).
 */
export async function dispatchEventBatch(
  deps: Pick<WorkerDeps, 'db' | 'clock'> & { log?: WorkerLog },
  limit = FAN_OUT_BATCH,
): Promise<number> {
  return (await fanOut(deps, limit)).handled;
}

/**
 * The fan-out, and with `claim` the claim of up to `claim.slots` deliveries in the same transaction
 * once events were fanned out: the deliveries an event just made leave without a second
 * transaction's round trips (a woken delivery waits for every one of them).
 */
export async function fanOut(
  deps: Pick<WorkerDeps, 'db' | 'clock'> & { log?: WorkerLog },
  limit: number,
  claim?: { deps: WorkerDeps; slots: number },
): Promise<{ handled: number; claimed: ClaimedDelivery[] }> {
  // The common case without savepoints: a woken delivery waits for this pass, each round trip counts.
  try {
    return await deps.db.transaction(async (tx) => {
      const now = deps.clock.now();
      const batch = await lockUndispatchedEvents(tx, limit, now);
      if (batch.length === 0) return { handled: 0, claimed: [] };
      await insertDeliveriesForEvents(tx, batch.map(toFanOut), now);
      await markEventsDispatched(tx, batch.map((event) => event.id), now);
      const claimed = claim && claim.slots > 0 ? await claimDeliveries({ ...claim.deps, db: tx }, claim.slots, { inTransaction: true }) : [];
      return { handled: batch.length, claimed };
    });
  } catch {
    // One of them is poisoned: find out which, event by event.
  }
  const handled = await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const batch = await lockUndispatchedEvents(tx, limit, now);
    for (const event of batch) {
      try {
        await tx.transaction(async (savepoint) => {
          await insertDeliveriesForEvents(savepoint, [toFanOut(event)], now);
          await markEventsDispatched(savepoint, [event.id], now);
        });
      } catch (error) {
        const failures = await markEventDispatchFailed(tx, event.id, (n) => new Date(now.getTime() + fanOutRetryDelayMs(n)));
        deps.log?.error({ err: error, eventId: event.id, failures }, 'webhook fan-out of an event failed; set aside for a retry');
      }
    }
    return batch.length;
  });
  return { handled, claimed: [] };
}
