import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Vite's "module" condition picks bundler builds Node cannot load (the AWS SDK's dist-es imports
// files without their extensions): the tests resolve packages as Node itself does in production.
const serverConditions = defaultServerConditions.filter((condition) => condition !== 'module');

export default defineConfig({
  // The tests import the SDK (@recruiting/sdk) from its sources: its exports map's
  // "@recruiting/source" condition, so `npm test` needs no build of sdk/dist first.
  resolve: { conditions: ['@recruiting/source', ...serverConditions] },
  ssr: { resolve: { conditions: ['@recruiting/source', ...serverConditions] } },
  test: {
    // Two tiers: *.unit.test.ts beside the pure files they test (no database, no HTTP), and the
    // HTTP and database tests under test/ (the real app through app.inject or a real process).
    include: ['test/**/*.test.ts', 'src/**/*.unit.test.ts', 'sdk/test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    // Two test files at a time even on a two-core machine (vitest's default there is one): most of
    // a file's time is spent waiting on servers, child processes and the browser, so the suite
    // takes about half as long, which keeps CI's two runs (embedded and PostgreSQL) short.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
