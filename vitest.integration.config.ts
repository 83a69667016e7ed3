import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import type { Request as MiniflareRequest, Response as MiniflareResponse } from "miniflare";
import { defineConfig } from "vitest/config";
import {
  FAKE_SUBSCRIPTION_PRICE_ID,
  STRIPE_FAKE_ORIGIN,
  stripeFake,
} from "./tests/integration/support/stripe-fake";

/**
 * Integration suite: tests run inside workerd (Miniflare) with the bindings of wrangler.toml.
 * `SELF.fetch` from "cloudflare:test" goes through workers/app.ts, which serves the built Remix app,
 * so run `npm run build` first (`npm test` does). Storage (D1, R2, KV) is isolated per test file.
 *
 * Two projects, because the Worker decides test mode from its configuration (no STRIPE_SECRET_KEY),
 * once per process, exactly as in production:
 * - `integration`: payments in test mode, as `wrangler dev` and the end-to-end suite run them;
 * - `integration-payments` (tests/integration/payments/): Stripe configured with test keys and the
 *   API pointed at a local fake (tests/integration/support/stripe-fake.ts), which Miniflare's
 *   outboundService answers in Node. Every outbound fetch of that Worker lands in the fake.
 */
const root = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const serverBuild = root("./build/server/index.js");

/** Test-only secrets for the payments project; the webhook tests sign events with the same secret. */
const STRIPE_TEST_BINDINGS = {
  STRIPE_SECRET_KEY: "sk_test_fakeSecretKeyForTheIntegrationTests",
  STRIPE_PUBLISHABLE_KEY: "pk_test_fakePublishableKeyForTheIntegrationTests",
  STRIPE_WEBHOOK_SECRET: "whsec_fakeWebhookSecretForTheIntegrationTests",
  STRIPE_SUBSCRIPTION_PRICE_ID: FAKE_SUBSCRIPTION_PRICE_ID,
  STRIPE_API_BASE: STRIPE_FAKE_ORIGIN,
};

export default defineConfig(async () => {
  if (!existsSync(serverBuild)) {
    throw new Error(
      `The integration tests run against the Remix server build, and ${serverBuild} does not exist.\n` +
        "Run `npm run build` first (`npm test` builds before it runs the suites).",
    );
  }
  const migrations = await readD1Migrations(root("./migrations"));
  const common = { ENVIRONMENT: "test", DEMO_MODE: "true", TEST_MIGRATIONS: migrations };
  const testSettings = {
    setupFiles: ["./tests/integration/setup.ts"],
    // Pre-bundled: the stripe package ships sourcemaps without their sources, which Vite warns about per file.
    deps: { optimizer: { ssr: { enabled: true, include: ["stripe"] } } },
  };

  return {
    resolve: {
      alias: [
        // wrangler.toml's [alias] is for wrangler's bundler; Vite needs its own copy.
        { find: /^virtual:remix-server-build$/, replacement: serverBuild },
        // As in wrangler.toml: the Worker renders without the browser's DOM renderer.
        { find: /^react-dom$/, replacement: root("./workers/react-dom-on-the-server.ts") },
        // As in wrangler.toml: Remix's runtime as an ES module, with the package's createCookie.
        { find: /^@remix-run\/cloudflare$/, replacement: root("./workers/remix-cloudflare.ts") },
        { find: /^~\//, replacement: `${root("./app")}/` },
      ],
    },
    test: {
      projects: [
        {
          extends: true as const,
          plugins: [
            cloudflareTest({
              wrangler: { configPath: "./wrangler.toml" },
              // These override wrangler.toml's [vars] and add a test-only binding for the setup file.
              miniflare: { bindings: common },
            }),
          ],
          test: {
            name: "integration",
            include: ["tests/integration/**/*.test.ts"],
            exclude: ["tests/integration/payments/**"],
            ...testSettings,
          },
        },
        {
          extends: true as const,
          plugins: [
            cloudflareTest({
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                bindings: { ...common, ...STRIPE_TEST_BINDINGS },
                // Miniflare's undici Request is a standard Request; the fake answers it in Node.
                outboundService: (request: MiniflareRequest) =>
                  stripeFake.fetch(request as unknown as Request) as unknown as Promise<MiniflareResponse>,
              },
            }),
          ],
          test: {
            name: "integration-payments",
            include: ["tests/integration/payments/**/*.test.ts"],
            ...testSettings,
            setupFiles: [...testSettings.setupFiles, "./tests/integration/payments/setup.ts"],
          },
        },
      ],
    },
  };
});
