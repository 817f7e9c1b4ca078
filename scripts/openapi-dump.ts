// Prints the OpenAPI document the app serves at /openapi.json (built in memory, no listen), so two
// commits can be compared byte for byte after a refactoring:
//   npm run openapi:dump > before.json; (change things); npm run openapi:dump | diff before.json -
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { buildDeps } from '../src/deps.ts';

const database = await openDatabase({}); // in memory: the document needs no data, only the schema
await migrate(database); // the app reads its signing keys at start
const deps = await buildDeps(loadConfig({ LOG_LEVEL: 'silent', SEED_DEMO: 'false' }), { database });
const app = await buildApp(deps);
try {
  const res = await app.inject({ method: 'GET', url: '/openapi.json' });
  process.stdout.write(`${JSON.stringify(res.json(), null, 2)}\n`);
} finally {
  await app.close();
  await deps.close();
  await database.close();
}
