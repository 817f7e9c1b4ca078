import { describe, expect, it } from 'vitest';
import { ValidationError } from './errors.ts';
import { hash } from 'node:crypto';
import { CHANGED_SINCE, cursorScope, decodeCursor, encodeCursor, NEWEST_FIRST, type Ordering } from './pagination.ts';
import { createSecretBox, generateEncryptionKey, parseEncryptionKey } from './secret-box.ts';

const FEED: Ordering = { name: 'feed', keys: ['xid8', 'bigint'], direction: 'asc', sync: true };
const RANKED: Ordering = { name: 'relevance', keys: ['real', 'timestamptz', 'uuid'], direction: 'desc' };
const ID = '0b6f3c1e-8a5d-4c2f-9e1a-2b3c4d5e6f70';
const keyA = parseEncryptionKey(generateEncryptionKey());
const keyB = parseEncryptionKey(generateEncryptionKey());
const box = createSecretBox(keyA);

describe('cursors', () => {
  const scope = cursorScope('job-listings', NEWEST_FIRST, { companyId: ID });

  it('round-trip', () => {
    const cursor = encodeCursor(box, scope, 3, ['2026-01-02T03:04:05.678Z', ID]);
    expect(decodeCursor(box, cursor, scope, NEWEST_FIRST)).toEqual({ s: scope, p: 3, k: ['2026-01-02T03:04:05.678Z', ID] });
  });

  it('depend on list, order and filters', () => {
    expect(cursorScope('job-listings', CHANGED_SINCE, { companyId: ID })).not.toBe(scope);
    expect(cursorScope('candidates', NEWEST_FIRST, { companyId: ID })).not.toBe(scope);
    expect(cursorScope('job-listings', NEWEST_FIRST, { companyId: ID, statuses: ['ACTIVE'] })).not.toBe(scope);
  });

  // Signed with the server's own key (as a bug of ours could): still refused before any SQL sees them.
  it.each([
    ['an impossible date', NEWEST_FIRST, ['2024-02-31T00:00:00.000Z', ID]],
    ['a date in another format', NEWEST_FIRST, ['2024-02-01', ID]],
    ['a year past 9999', NEWEST_FIRST, ['+010000-01-01T00:00:00.000Z', ID]],
    ['the year 0000 (valid in JavaScript, not in PostgreSQL)', NEWEST_FIRST, ['0000-01-01T00:00:00.000Z', ID]],
    ['a year before 0000', NEWEST_FIRST, ['-000001-01-01T00:00:00.000Z', ID]],
    ['a bad uuid', NEWEST_FIRST, ['2024-02-01T00:00:00.000Z', 'x']],
    ['too few keys', NEWEST_FIRST, [ID]],
    ['a rank out of float4', RANKED, [1e39, '2024-02-01T00:00:00.000Z', ID]],
    ['a rank too small for float4', RANKED, [1e-50, '2024-02-01T00:00:00.000Z', ID]],
    ['a sequence past bigint', FEED, ['1', '9223372036854775808']],
    ['a transaction id past xid8', FEED, ['18446744073709551616', '1']],
    ['a negative sequence', FEED, ['1', '-1']],
  ] as const)('refuses %s', (_name, ordering, keys) => {
    const own = cursorScope('x', ordering, null);
    expect(() => decodeCursor(box, encodeCursor(box, own, 1, [...keys]), own, ordering)).toThrow(ValidationError);
  });

  it('accepts the first year PostgreSQL knows, and refuses a page index past the page parameter\'s', () => {
    const keys = ['0001-01-01T00:00:00.000Z', ID];
    expect(decodeCursor(box, encodeCursor(box, scope, 1, keys), scope, NEWEST_FIRST).k).toEqual(keys);
    expect(() => decodeCursor(box, encodeCursor(box, scope, 9_000_000_000_001, keys), scope, NEWEST_FIRST)).toThrow(ValidationError);
  });

  it('refuses a cursor signed with another key or with the old unkeyed checksum', () => {
    const keys = ['2026-01-02T03:04:05.678Z', ID];
    expect(() => decodeCursor(box, encodeCursor(createSecretBox(keyB), scope, 1, keys), scope, NEWEST_FIRST)).toThrow(ValidationError);
    const body = Buffer.from(JSON.stringify({ s: scope, p: 1, k: keys })).toString('base64url');
    expect(() => decodeCursor(box, `${body}.${hash('sha256', body, 'base64url').slice(0, 8)}`, scope, NEWEST_FIRST)).toThrow(ValidationError);
  });

  it('still accepts cursors signed under the previous key during a key rotation', () => {
    const cursor = encodeCursor(box, scope, 1, ['2026-01-02T03:04:05.678Z', ID]);
    expect(decodeCursor(createSecretBox(keyB, [keyA]), cursor, scope, NEWEST_FIRST).p).toBe(1);
  });

  it('refuses cut, edited or foreign cursors', () => {
    const cursor = encodeCursor(box, scope, 1, ['2026-01-02T03:04:05.678Z', ID]);
    expect(() => decodeCursor(box, cursor.slice(0, -1), scope, NEWEST_FIRST)).toThrow(ValidationError);
    expect(() => decodeCursor(box, `x${cursor}`, scope, NEWEST_FIRST)).toThrow(ValidationError);
    let refusal: unknown;
    try {
      decodeCursor(box, cursor, cursorScope('webhooks', NEWEST_FIRST, { companyId: ID }), NEWEST_FIRST);
    } catch (error) {
      refusal = error;
    }
    expect((refusal as ValidationError).details).toEqual([{ field: 'cursor', message: expect.stringMatching(/another list/) }]);
    expect(() => decodeCursor(box, `${cursor}.x`, scope, NEWEST_FIRST)).toThrow(ValidationError);
  });
});
