// The real app (same plugins, same database) with one extra route: /bench/enums, the handler of
// GET /public/v1/enums without authentication. auth_overhead_ratio compares the two in one process.
// `PORT=… DATABASE_URL=… node bench/app-twin.ts`
import { Type } from 'typebox';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { buildDeps } from '../src/deps.ts';
import { listEnums } from '../src/modules/reference-data/service.ts';

const config = loadConfig();
const deps = await buildDeps(config);
const app = await buildApp(deps);
app.get('/bench/enums', { schema: { hide: true, response: { 200: Type.Ref('Enums') } } }, async () => listEnums());
await app.listen({ port: config.port, host: '127.0.0.1' });
console.log('ready');
