// Every test file is one that `npm test` runs: a *.test.ts outside vitest's include patterns is
// silently never run (src/modules/social/profile.test.ts was, until this test).
import { globSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import config from '../../vitest.config.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
// Installed packages ship their own tests; the dashboard's build holds none.
const skipped = (path: string) => /(^|\/)(node_modules|dist|dist-next|data|coverage)$/.test(path);

describe('test files', () => {
  it('every *.test.ts matches the include patterns of vitest.config.ts', () => {
    const include = config.test?.include ?? [];
    expect(include.length).toBeGreaterThan(0);
    const all = globSync('**/*.test.ts', { cwd: ROOT, exclude: skipped });
    const run = new Set(include.flatMap((pattern) => globSync(pattern, { cwd: ROOT, exclude: skipped })));
    expect(all.length).toBeGreaterThan(10);
    expect(all.filter((path) => !run.has(path))).toEqual([]);
  });
});
