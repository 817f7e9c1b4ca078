// The OpenAPI document the app serves at /openapi.json, built in memory (a migrated in-memory
// database, no listen) with fixed settings, so the checked-in copy (sdk/openapi.json) does not
// depend on whoever generated it.
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { buildDeps } from '../src/deps.ts';

/**
 * The base URL the checked-in document names (a served document names the server's BASE_URL): a
 * reserved `.example` name, as the SDK is always given the real one.
 */
export const DOCUMENT_BASE_URL = 'https://api.recruiting.example';

export async function buildOpenApiDocument(): Promise<Record<string, unknown>> {
  const database = await openDatabase({});
  try {
    await migrate(database);
    const config = loadConfig({ LOG_LEVEL: 'silent', SEED_DEMO: 'false', BASE_URL: DOCUMENT_BASE_URL });
    const deps = await buildDeps(config, { database });
    const app = await buildApp(deps);
    try {
      const res = await app.inject({ method: 'GET', url: '/openapi.json' });
      if (res.statusCode !== 200) throw new Error(`GET /openapi.json answered ${res.statusCode}`);
      return res.json();
    } finally {
      await app.close();
      await deps.close();
    }
  } finally {
    await database.close();
  }
}
