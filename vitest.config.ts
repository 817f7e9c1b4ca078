import { defineConfig } from 'vitest/config';

export default defineConfig({
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
