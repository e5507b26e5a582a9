import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/globalSetup.ts'],
    // Emulators start per test file on free ports; the machines have two cores.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Tests must be able to fail: a focused or skipped test is a CI error.
    allowOnly: false,
    passWithNoTests: false,
    env: {
      // Handlers log through Powertools; tests assert on results, not on log lines.
      POWERTOOLS_LOG_LEVEL: 'SILENT',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
  },
});
