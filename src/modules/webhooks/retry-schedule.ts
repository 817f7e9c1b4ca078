// When a failed delivery is tried again (decisions.md): after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h
// and 10 h, each stretched or shrunk by up to 20% so that a receiver coming back from an outage is
// not hit by every retry in the same second. Then the delivery is given up (FAILED).

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const RETRY_DELAYS_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR] as const;
export const RETRY_JITTER = 0.2;
/** A subscription whose attempts have all failed for this long is switched off. */
export const DISABLE_AFTER_FAILING_MS = 5 * DAY;

/**
 * Milliseconds to wait before the next attempt, after `failedAttempts` failures in a row
 * (1: the first attempt failed); null when the schedule is exhausted and the delivery is given up.
 * `random` returns [0, 1), like Math.random.
 */
export function retryDelayMs(failedAttempts: number, random: () => number = Math.random): number | null {
  if (!Number.isInteger(failedAttempts) || failedAttempts < 1 || failedAttempts > RETRY_DELAYS_MS.length) return null;
  const base = RETRY_DELAYS_MS[failedAttempts - 1];
  const factor = 1 - RETRY_JITTER + 2 * RETRY_JITTER * random();
  return Math.round(base * factor);
}

/** Whether a run of failures that began at `failingSince` has lasted long enough to disable. */
export function failedLongEnoughToDisable(failingSince: Date, now: Date): boolean {
  return now.getTime() - failingSince.getTime() >= DISABLE_AFTER_FAILING_MS;
}

export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED';

export interface AttemptOutcome {
  status: DeliveryStatus;
  /** Failed attempts since the delivery was (re)queued, after this one. */
  retryStep: number;
  /** When status is PENDING: wait this long before the next attempt. */
  retryInMs: number | null;
  /** What the attempt says about the subscription. */
  subscription: 'healthy' | 'gone' | 'failing';
}

/**
 * What an attempt means (decisions.md): a 2xx is success; 410 Gone gives up and disables the
 * subscription at once; anything else (no answer, a 3xx since redirects are not followed, 4xx, 5xx)
 * is retried on the schedule until it runs out.
 */
export function attemptOutcome(
  statusCode: number | null,
  retryStep: number,
  random: () => number = Math.random,
): AttemptOutcome {
  if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
    return { status: 'DELIVERED', retryStep, retryInMs: null, subscription: 'healthy' };
  }
  const step = retryStep + 1;
  if (statusCode === 410) return { status: 'FAILED', retryStep: step, retryInMs: null, subscription: 'gone' };
  const delay = retryDelayMs(step, random);
  if (delay === null) return { status: 'FAILED', retryStep: step, retryInMs: null, subscription: 'failing' };
  return { status: 'PENDING', retryStep: step, retryInMs: delay, subscription: 'failing' };
}
