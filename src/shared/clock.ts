// Time comes through a Clock so tests can move it (key expiry, listing expiry, retry schedules).

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
