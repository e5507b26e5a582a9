import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Emulators start per test file on free ports; the machines have two cores.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Tests must be able to fail: a focused or skipped test is a CI error.
    allowOnly: false,
    passWithNoTests: false,
  },
});
