// The database's errors as the app tells them apart: unreachable at start, busy (503), and
// transient (a transaction worth running again). Lost connections: src/db/connection-errors.ts.

/** The PostgreSQL server of DATABASE_URL is unreachable or refuses the connection. */
export class DatabaseConnectError extends Error {
  override name = 'DatabaseConnectError';
}

/**
 * The database cannot take the request now (no free connection in time, or a statement ran past
 * statement_timeout, typically waiting for a lock): a 503 with Retry-After, not a 500.
 */
export class DatabaseBusyError extends Error {
  override name = 'DatabaseBusyError';
}

/** Whether an error (or one of its causes: Drizzle wraps driver errors) says the database is busy. */
export function isDatabaseBusy(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof DatabaseBusyError) return true;
    if ((e as { code?: unknown }).code === '57014') return true; // query_canceled: statement_timeout
    if (e.message === 'timeout exceeded when trying to connect') return true; // pg-pool wait
  }
  return false;
}

/**
 * A deadlock (40P01) or serialization failure (40001): PostgreSQL rolled the transaction back and
 * running it again may well succeed. Drizzle wraps the driver's error, so the cause chain is read.
 */
export function isTransientTransactionError(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e.code === '40P01' || e.code === '40001') return true;
  }
  return false;
}

/** A PostgreSQL error's SQLSTATE (23505 unique, 23503 foreign key...), read through Drizzle's wrapping; undefined for another error. */
export function sqlState(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}
