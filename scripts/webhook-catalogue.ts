// Prints the "Event catalogue" table of docs/webhooks.md from the catalogue the code declares
// (src/modules/*/events.ts). test/webhooks/catalogue.test.ts fails until the docs show it.
//   npm run -s docs:webhooks
import { webhookCatalogueMarkdown } from '../src/modules/webhooks/events.ts';

process.stdout.write(`${webhookCatalogueMarkdown()}\n`);
