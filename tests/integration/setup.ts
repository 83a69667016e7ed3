import { applyD1Migrations, env } from "cloudflare:test";

// Runs inside workerd before each test file. Each file starts with empty storage, so this gives it
// the schema of migrations/ (read in vitest.integration.config.ts). Already-applied ones are skipped.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
