import { describe, expect, it } from 'vitest';
import { attemptOutcome, failedLongEnoughToDisable, RETRY_DELAYS_MS, retryDelayMs } from './retry-schedule.ts';

const S = 1000;
const M = 60 * S;
const H = 60 * M;

describe('retry schedule', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h without jitter, then gives up', () => {
    const middle = () => 0.5; // factor exactly 1
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelayMs(n, middle))).toEqual([5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 10 * H]);
    expect(retryDelayMs(8, middle)).toBeNull();
    expect(retryDelayMs(0, middle)).toBeNull();
  });

  it('stays within +-20% of each delay', () => {
    RETRY_DELAYS_MS.forEach((base, index) => {
      expect(retryDelayMs(index + 1, () => 0)).toBe(Math.round(base * 0.8));
      expect(retryDelayMs(index + 1, () => 0.999999)).toBeLessThanOrEqual(Math.round(base * 1.2));
      for (let i = 0; i < 50; i++) {
        const delay = retryDelayMs(index + 1)!;
        expect(delay).toBeGreaterThanOrEqual(base * 0.8 - 1);
        expect(delay).toBeLessThanOrEqual(base * 1.2 + 1);
      }
    });
  });

  it('spreads retries (jitter) rather than repeating one value', () => {
    const delays = new Set(Array.from({ length: 20 }, () => retryDelayMs(2)));
    expect(delays.size).toBeGreaterThan(1);
  });
});

describe('attempt outcome', () => {
  it('treats any 2xx as delivered and the subscription as healthy', () => {
    for (const status of [200, 201, 204, 299]) {
      expect(attemptOutcome(status, 3)).toEqual({ status: 'DELIVERED', retryStep: 3, retryInMs: null, subscription: 'healthy' });
    }
  });

  it('gives up at once on 410 Gone and reports the endpoint gone', () => {
    expect(attemptOutcome(410, 0)).toMatchObject({ status: 'FAILED', retryInMs: null, subscription: 'gone' });
  });

  it('retries redirects, client and server errors and no answer on the schedule', () => {
    for (const status of [301, 302, 400, 404, 429, 500, 503, null]) {
      expect(attemptOutcome(status, 0, () => 0.5)).toEqual({
        status: 'PENDING',
        retryStep: 1,
        retryInMs: 5 * S,
        subscription: 'failing',
      });
    }
    expect(attemptOutcome(500, 6, () => 0.5)).toMatchObject({ status: 'PENDING', retryStep: 7, retryInMs: 10 * H });
    expect(attemptOutcome(500, 7, () => 0.5)).toMatchObject({ status: 'FAILED', retryStep: 8, retryInMs: null });
  });

  it('disables after five days of failures in a row', () => {
    const start = new Date('2025-01-01T00:00:00Z');
    expect(failedLongEnoughToDisable(start, new Date('2025-01-05T23:59:59Z'))).toBe(false);
    expect(failedLongEnoughToDisable(start, new Date('2025-01-06T00:00:00Z'))).toBe(true);
  });
});
