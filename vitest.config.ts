import { defineConfig } from 'vitest/config';

/**
 * Two groups, one after the other: every test, then the big-layer tests (test/big-layers/),
 * one file at a time. These hold a server's /health under 100 ms while it draws a million
 * features beside busy loops on every core: run beside the rest of the suite as well, the
 * machine would have more work than that promise is about.
 */
const shared = { testTimeout: 20_000, hookTimeout: 30_000, pool: 'forks' } as const;

export default defineConfig({
  test: {
    projects: [
      { test: { ...shared, name: 'main', include: ['test/**/*.test.ts'], exclude: ['test/big-layers/**'], sequence: { groupOrder: 0 } } },
      { test: { ...shared, name: 'big-layers', include: ['test/big-layers/**/*.test.ts'], fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
