/// <reference types="@cloudflare/vitest-pool-workers/types" />
import type { D1Migration } from "cloudflare:test";
import type { Env as WorkerEnv } from "../../workers/env";

declare global {
  namespace Cloudflare {
    /** `env` from "cloudflare:test": the Worker's bindings plus the test-only ones of the integration config. */
    interface Env extends WorkerEnv {
      ENVIRONMENT: string;
      DEMO_MODE: string;
      TEST_MIGRATIONS: D1Migration[];
      /** Set only in the integration-payments project (vitest.integration.config.ts). */
      STRIPE_WEBHOOK_SECRET?: string;
    }
  }
}
