// What the dashboard tells a person when the API refuses for now (429, 503): what happened and when
// to try again, from the Retry-After the server sent. The component shows this sentence, re-read
// every second until the time has come.
import { describe, expect, it } from 'vitest';
import { refusalAdvice } from '../../dashboard/src/refusal.ts';

const now = Date.UTC(2025, 0, 1, 12, 0, 0);

describe('refusalAdvice', () => {
  it('says a 429 is a limit and counts down to the Retry-After time', () => {
    const retryAt = now + 42_000;
    expect(refusalAdvice(429, retryAt, now)).toBe('Too many requests for now. Try again in 42 seconds.');
    expect(refusalAdvice(429, retryAt, now + 40_500)).toMatch(/Try again in 2 seconds\.$/);
    expect(refusalAdvice(429, retryAt, now + 41_001)).toMatch(/Try again in 1 second\.$/);
    expect(refusalAdvice(429, retryAt, retryAt)).toMatch(/You can try again now\.$/);
    expect(refusalAdvice(429, now + 90_000, now)).toMatch(/Try again in 2 minutes\.$/);
    expect(refusalAdvice(429, now + 61_000, now)).toMatch(/Try again in 1 minute\.$/);
    expect(refusalAdvice(429, undefined, now)).toMatch(/Try again in a minute\.$/);
  });

  it('says a 503 is brief, and nothing for other statuses', () => {
    expect(refusalAdvice(503, now + 5_000, now)).toBe('The service is briefly unavailable. Try again in 5 seconds.');
    expect(refusalAdvice(401, now + 5_000, now)).toBeUndefined();
    expect(refusalAdvice(500, undefined, now)).toBeUndefined();
  });
});
