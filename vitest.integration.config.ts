import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

/**
 * Integration suite: tests run inside workerd (Miniflare) with the bindings of wrangler.toml.
 * `SELF.fetch` from "cloudflare:test" goes through workers/app.ts, which serves the built Remix app,
 * so run `npm run build` first (`npm test` does). Storage (D1, R2, KV) is isolated per test file.
 */
const root = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const serverBuild = root("./build/server/index.js");

export default defineConfig(async () => {
  if (!existsSync(serverBuild)) {
    throw new Error(
      `The integration tests run against the Remix server build, and ${serverBuild} does not exist.\n` +
        "Run `npm run build` first (`npm test` builds before it runs the suites).",
    );
  }
  const migrations = await readD1Migrations(root("./migrations"));

  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          // These override wrangler.toml's [vars] and add a test-only binding for the setup file.
          bindings: {
            ENVIRONMENT: "test",
            DEMO_MODE: "true",
            TEST_MIGRATIONS: migrations,
          },
        },
      }),
    ],
    resolve: {
      alias: [
        // wrangler.toml's [alias] is for wrangler's bundler; Vite needs its own copy.
        { find: /^virtual:remix-server-build$/, replacement: serverBuild },
        { find: /^~\//, replacement: `${root("./app")}/` },
      ],
    },
    test: {
      name: "integration",
      include: ["tests/integration/**/*.test.ts"],
      setupFiles: ["./tests/integration/setup.ts"],
      deps: { optimizer: { ssr: { enabled: true, include: ["@remix-run/cloudflare"] } } },
    },
  };
});
