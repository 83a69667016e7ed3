import { defineConfig } from "vitest/config";

/**
 * End-to-end suite: a real Chromium (playwright-core) against `wrangler dev`, started once by the
 * globalSetup in tests/e2e/harness.ts. Files run one after another against that one server.
 */
export default defineConfig({
  test: {
    name: "e2e",
    environment: "node",
    include: ["tests/e2e/**/*.test.ts"],
    globalSetup: ["./tests/e2e/harness.ts"],
    setupFiles: ["./tests/e2e/support/setup.ts"],
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
