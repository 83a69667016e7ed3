import { env } from "cloudflare:test";
import { hashPassword } from "~/auth/password.server";
import { buildDemoRows, DEMO_TABLES, demoAccounts, demoUsernames } from "../../../scripts/lib/demo-rows";
import { renderInserts } from "../../../scripts/lib/sql";
import { randomToken } from "../../factories";

/**
 * Loads the demo marketplace (the same rows `npm run db:seed` writes) into this test file's empty
 * D1, so tests can walk the screens list (tests/e2e/support/screens.ts) with the seed's ids and the
 * demo accounts. Only the demo accounts get their real password hashes (PBKDF2 is slow on purpose).
 */
export async function seedDemoMarketplace() {
  const unusable = await hashPassword(`${crypto.randomUUID()}${randomToken()}`);
  const passwords = new Map(demoAccounts().map((account) => [account.username, account.password]));
  const passwordHashes = new Map<string, string>();
  for (const username of demoUsernames()) {
    const password = passwords.get(username);
    passwordHashes.set(username, password ? await hashPassword(password) : unusable);
  }
  const rows = buildDemoRows({
    now: new Date(),
    firstIds: Object.fromEntries(DEMO_TABLES.map((table) => [table, 1])) as Record<
      (typeof DEMO_TABLES)[number],
      number
    >,
    existingCategoryIds: new Map(),
    passwordHashes,
    randomToken,
  });
  const statements = renderInserts(rows, DEMO_TABLES);
  await env.DB.batch(statements.map((statement) => env.DB.prepare(statement)));
}
