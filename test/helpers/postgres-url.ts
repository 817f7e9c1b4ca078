/** The same server and credentials, another database. */
export function databaseUrlFor(databaseUrl: string, database: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** A connection for CREATE/DROP DATABASE: the server's maintenance database. */
export function adminUrl(databaseUrl: string): string {
  return databaseUrlFor(databaseUrl, 'postgres');
}
