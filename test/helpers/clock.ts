import type { Clock } from '../../src/shared/clock.ts';

/** Real time plus an offset the test controls: timestamps stay realistic, expiry can be reached. */
export class TestClock implements Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export const DAY_MS = 24 * 60 * 60 * 1000;
