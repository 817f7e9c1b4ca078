import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { isDatabaseConnectionLost } from './connection-errors.ts';

/** An error as pg makes it from PostgreSQL's ErrorResponse, or from a socket. */
const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isDatabaseConnectionLost', () => {
  it('knows a session PostgreSQL ended or would not start', () => {
    expect(isDatabaseConnectionLost(withCode('terminating connection due to administrator command', '57P01'))).toBe(true);
    expect(isDatabaseConnectionLost(withCode('the database system is starting up', '57P03'))).toBe(true);
    expect(isDatabaseConnectionLost(withCode('the database system is shutting down', '57P03'))).toBe(true);
    expect(isDatabaseConnectionLost(withCode('sorry, too many clients already', '53300'))).toBe(true);
    expect(isDatabaseConnectionLost(withCode('connection failure', '08006'))).toBe(true);
  });

  it('knows a socket that was refused or broke, and pg’s own words for a lost connection', () => {
    expect(isDatabaseConnectionLost(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))).toBe(true);
    expect(isDatabaseConnectionLost(withCode('read ECONNRESET', 'ECONNRESET'))).toBe(true);
    expect(isDatabaseConnectionLost(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseConnectionLost(new Error('Connection terminated due to connection timeout'))).toBe(true);
    expect(isDatabaseConnectionLost(new Error('Client has encountered a connection error and is not queryable'))).toBe(true);
  });

  it('reads the cause Drizzle wraps the driver’s error in', () => {
    expect(isDatabaseConnectionLost(new DrizzleQueryError('select 1', [], withCode('terminating connection', '57P01')))).toBe(true);
    expect(isDatabaseConnectionLost(new DrizzleQueryError('select 1', [], new Error('Connection terminated unexpectedly')))).toBe(true);
  });

  it('leaves every other error alone (a 500 stays a 500)', () => {
    expect(isDatabaseConnectionLost(withCode('duplicate key value violates unique constraint', '23505'))).toBe(false);
    expect(isDatabaseConnectionLost(withCode('canceling statement due to statement timeout', '57014'))).toBe(false);
    expect(isDatabaseConnectionLost(new DrizzleQueryError('select 1', [], withCode('syntax error', '42601')))).toBe(false);
    expect(isDatabaseConnectionLost(new Error('Connection terminated unexpectedly, or so they say'))).toBe(false);
    expect(isDatabaseConnectionLost('ECONNREFUSED')).toBe(false);
    expect(isDatabaseConnectionLost(undefined)).toBe(false);
  });
});
