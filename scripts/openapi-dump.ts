// Prints the OpenAPI document the app serves at /openapi.json (built in memory, no listen), so two
// commits can be compared byte for byte after a refactoring:
//   npm run openapi:dump > before.json; (change things); npm run openapi:dump | diff before.json -
import { buildOpenApiDocument } from './openapi-document.ts';

process.stdout.write(`${JSON.stringify(await buildOpenApiDocument(), null, 2)}\n`);
