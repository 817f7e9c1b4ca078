// Which errors mean "the database could not be reached, or ended the session": the request did not
// fail for anything in it, and the same request moments later may well succeed (a restart, a
// failover, a pooler restarting, a network blip, a terminated session). The error handler answers
// these 503 with Retry-After rather than 500.

/**
 * PostgreSQL's SQLSTATEs for a session that ended or could not start, and Node's socket errors
 * (pg passes them on with their `code`).
 */
const CONNECTION_CODES = new Set([
  '57P01', // admin_shutdown: terminating connection due to administrator command (pg_terminate_backend, a fast shutdown)
  '57P02', // crash_shutdown: another server process crashed
  '57P03', // cannot_connect_now: the database system is starting up / shutting down / in recovery
  '53300', // too_many_connections: the server's max_connections is reached (another client's burst)
  '08000', // connection_exception
  '08001', // sqlclient_unable_to_establish_sqlconnection
  '08003', // connection_does_not_exist
  '08004', // sqlserver_rejected_establishment_of_sqlconnection
  '08006', // connection_failure
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** pg's own errors for a connection that ended or broke, which carry no code. */
const CONNECTION_MESSAGES = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Connection terminated due to connection timeout',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
]);

/**
 * Whether an error (or one of its causes: Drizzle wraps driver errors) says the database connection
 * was lost or could not be made.
 */
export function isDatabaseConnectionLost(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
    if (CONNECTION_MESSAGES.has(e.message)) return true;
  }
  return false;
}
