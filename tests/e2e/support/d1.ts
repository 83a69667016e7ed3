import { join } from "node:path";
import { CommandTimeoutError, ROOT, runCommand } from "./server";

const WRANGLER = join(ROOT, "node_modules", ".bin", "wrangler");

/** One `wrangler d1 execute` takes ~4 s on an idle machine and rarely 15 s on a busy one. */
const ATTEMPT_TIMEOUT_MS = 25_000;

/**
 * Runs SQL against the local D1 database of the server under test (`wrangler d1 execute --local`
 * on its `--persist-to` directory), for states no screen can reach in a test's time: a question
 * whose 24-hour deadline has passed.
 *
 * A local wrangler command now and then never ends (its Miniflare stays up after the statement ran):
 * an attempt that runs out of time is killed and tried once more. So write `statement` to be safe
 * to run twice (INSERT ... WHERE NOT EXISTS, INSERT OR IGNORE with a fixed id, UPDATE).
 */
export async function executeSql(stateDir: string, statement: string) {
  const args = ["d1", "execute", "DB", "--local", "--persist-to", stateDir, "--yes", "--command", statement];
  const label = "wrangler d1 execute";
  try {
    await runCommand(WRANGLER, args, label, {}, ATTEMPT_TIMEOUT_MS);
  } catch (error) {
    if (!(error instanceof CommandTimeoutError)) throw error;
    console.warn(`[e2e] ${error.message}\n[e2e] trying ${label} once more`);
    await runCommand(WRANGLER, args, label, {}, ATTEMPT_TIMEOUT_MS);
  }
}
