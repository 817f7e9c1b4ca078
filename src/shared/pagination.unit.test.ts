import { describe, expect, it } from 'vitest';
import { ValidationError } from './errors.ts';
import { CHANGED_SINCE, cursorScope, decodeCursor, encodeCursor, NEWEST_FIRST, type Ordering } from './pagination.ts';

const FEED: Ordering = { name: 'feed', keys: ['xid8', 'bigint'], direction: 'asc', sync: true };
const RANKED: Ordering = { name: 'relevance', keys: ['real', 'timestamptz', 'uuid'], direction: 'desc' };
const ID = '0b6f3c1e-8a5d-4c2f-9e1a-2b3c4d5e6f70';

describe('cursors', () => {
  const scope = cursorScope('job-listings', NEWEST_FIRST, { companyId: ID });

  it('round-trip', () => {
    const cursor = encodeCursor(scope, 3, ['2026-01-02T03:04:05.678Z', ID]);
    expect(decodeCursor(cursor, scope, NEWEST_FIRST)).toEqual({ s: scope, p: 3, k: ['2026-01-02T03:04:05.678Z', ID] });
  });

  it('depend on list, order and filters', () => {
    expect(cursorScope('job-listings', CHANGED_SINCE, { companyId: ID })).not.toBe(scope);
    expect(cursorScope('candidates', NEWEST_FIRST, { companyId: ID })).not.toBe(scope);
    expect(cursorScope('job-listings', NEWEST_FIRST, { companyId: ID, statuses: ['ACTIVE'] })).not.toBe(scope);
  });

  // Made with a correct checksum (anyone can compute it): still refused before any SQL sees them.
  it.each([
    ['an impossible date', NEWEST_FIRST, ['2024-02-31T00:00:00.000Z', ID]],
    ['a date in another format', NEWEST_FIRST, ['2024-02-01', ID]],
    ['a year past 9999', NEWEST_FIRST, ['+010000-01-01T00:00:00.000Z', ID]],
    ['a bad uuid', NEWEST_FIRST, ['2024-02-01T00:00:00.000Z', 'x']],
    ['too few keys', NEWEST_FIRST, [ID]],
    ['a rank out of float4', RANKED, [1e39, '2024-02-01T00:00:00.000Z', ID]],
    ['a rank too small for float4', RANKED, [1e-50, '2024-02-01T00:00:00.000Z', ID]],
    ['a sequence past bigint', FEED, ['1', '9223372036854775808']],
    ['a transaction id past xid8', FEED, ['18446744073709551616', '1']],
    ['a negative sequence', FEED, ['1', '-1']],
  ] as const)('refuses %s', (_name, ordering, keys) => {
    const own = cursorScope('x', ordering, null);
    expect(() => decodeCursor(encodeCursor(own, 1, [...keys]), own, ordering)).toThrow(ValidationError);
  });

  it('refuses cut, edited or foreign cursors', () => {
    const cursor = encodeCursor(scope, 1, ['2026-01-02T03:04:05.678Z', ID]);
    expect(() => decodeCursor(cursor.slice(0, -1), scope, NEWEST_FIRST)).toThrow(ValidationError);
    expect(() => decodeCursor(`x${cursor}`, scope, NEWEST_FIRST)).toThrow(ValidationError);
    let refusal: unknown;
    try {
      decodeCursor(cursor, cursorScope('webhooks', NEWEST_FIRST, { companyId: ID }), NEWEST_FIRST);
    } catch (error) {
      refusal = error;
    }
    expect((refusal as ValidationError).details).toEqual([{ field: 'cursor', message: expect.stringMatching(/another list/) }]);
    expect(() => decodeCursor(`${cursor}.x`, scope, NEWEST_FIRST)).toThrow(ValidationError);
  });
});
