// Time comes through a Clock so tests can move it (key expiry, listing expiry, retry schedules).

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock for tests: starts at a given instant and only moves when told. */
export class ManualClock implements Clock {
  #now: number;
  constructor(start: Date | string = '2026-01-01T00:00:00.000Z') {
    this.#now = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#now);
  }
  set(at: Date | string): void {
    this.#now = new Date(at).getTime();
  }
  advance(ms: number): void {
    this.#now += ms;
  }
}
