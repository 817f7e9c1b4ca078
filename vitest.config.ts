import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two tiers: *.unit.test.ts beside the pure files they test (no database, no HTTP), and the
    // HTTP and database tests under test/ (the real app through app.inject or a real process).
    include: ['test/**/*.test.ts', 'src/**/*.unit.test.ts', 'sdk/test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
