// The long-running delivery loop of one worker: wakes on an outbox commit (NOTIFY events_recorded)
// or its poll, fans out, claims the free slots and sends, each send's outcome written by the
// loop's own outcome writer.
import type { ServiceContext } from '../../../shared/context.ts';
import type { ClaimedDelivery } from '../repo/claim.ts';
import { attemptDelivery } from './attempt.ts';
import { claimDeliveries } from './claim.ts';
import { FAN_OUT_BATCH, fanOut } from './fan-out.ts';
import { createOutcomeWriter } from './outcomes.ts';
import type { WorkerDeps } from './worker-deps.ts';

export interface WebhookWorker {
  /** Stops claiming, lets sends in flight finish (each bounded by the send timeout), releases. */
  stop(): Promise<void>;
}

export interface LoopOptions {
  pollMs: number;
  /** Wakes the loop when an outbox event is committed (NOTIFY events_recorded, migrations 0016 and 0024). */
  notifications?: ServiceContext['notifications'];
}

/**
 * After a fan-out woken by a notification, the fan-outs that follow if nothing else wakes the loop,
 * each this long after the one before: of the transactions committing at the same moment only one
 * notifies (migration 0024), and the others' events may become visible just after the woken
 * fan-out read. Their commits end within a WAL flush of the notifier's.
 */
const RECHECKS_MS = [10, 50, 250];

/**
 * The long-running loop: keeps up to `concurrency` sends in flight, polls when idle. Fan-out runs
 * when an event was committed (or the last batch was full, or a poll interval passed), not on every
 * finished send: at volume a pass is one claim of the slots freed meanwhile.
 */
export function runWebhookWorkerLoop(deps: WorkerDeps, options: LoopOptions): WebhookWorker {
  const outcomes = createOutcomeWriter(deps);
  let stopped = false;
  let wake: (() => void) | undefined;
  /** An event was committed since the last fan-out began: fan out again before pausing. */
  let signalled = false;
  /** The last fan-out took a full batch: more may be waiting. */
  let moreToFanOut = true;
  /** The rechecks (RECHECKS_MS) left since the last notification; one is due after its pause. */
  let rechecks: number[] = [];
  let recheckDue = false;
  let lastFanOut = 0;
  const inFlight = new Set<Promise<void>>();
  // Woken by the commit of each outbox write, a delivery leaves within milliseconds; the poll
  // stays as the safety net (a lost connection, a retry coming due).
  const unlisten = options.notifications
    ?.listen('events_recorded', {
      onMessage: () => {
        signalled = true;
        rechecks = [...RECHECKS_MS];
        wake?.();
      },
      onState: () => {
        signalled = true;
        wake?.();
      },
    })
    .catch((error: unknown) => {
      deps.log.error({ err: error }, 'webhook worker could not listen for new events; polling only');
      return undefined;
    });

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        if (wake === done) wake = undefined;
        resolve();
      }
      wake = done;
      // A finished send frees a slot: look for more work at once.
      for (const send of inFlight) void send.then(done, done);
    });

  const loop = (async () => {
    while (!stopped) {
      let progressed = false;
      try {
        const start = (claimed: ClaimedDelivery) => {
          progressed = true;
          const send: Promise<void> = attemptDelivery(deps, claimed, outcomes)
            .catch((error: unknown) => deps.log.error({ err: error, deliveryId: claimed.delivery.id }, 'webhook attempt could not be recorded'))
            .finally(() => inFlight.delete(send));
          inFlight.add(send);
        };
        let claimedWithFanOut = false;
        if (signalled || recheckDue || moreToFanOut || performance.now() - lastFanOut >= options.pollMs) {
          signalled = false;
          recheckDue = false;
          lastFanOut = performance.now();
          const { handled, claimed } = await fanOut(deps, FAN_OUT_BATCH, { deps, slots: deps.concurrency - inFlight.size });
          moreToFanOut = handled >= FAN_OUT_BATCH;
          if (handled > 0) progressed = true;
          claimedWithFanOut = claimed.length > 0;
          claimed.forEach(start);
        }
        const free = deps.concurrency - inFlight.size;
        if (free > 0 && !stopped && !claimedWithFanOut) (await claimDeliveries(deps, free)).forEach(start);
      } catch (error) {
        deps.log.error({ err: error }, 'webhook worker pass failed');
      }
      if (stopped) break;
      if ((!progressed && !signalled && !moreToFanOut) || inFlight.size >= deps.concurrency) {
        const recheck = rechecks.shift();
        await pause(recheck ?? options.pollMs);
        recheckDue = recheck !== undefined;
      }
    }
    // Each send settles once its outcome is written.
    await Promise.allSettled([...inFlight]);
    await (await unlisten)?.();
  })();

  return {
    async stop() {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}

