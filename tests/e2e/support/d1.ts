import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { ROOT } from "./server";

const run = promisify(execFile);
const WRANGLER = join(ROOT, "node_modules", ".bin", "wrangler");

/**
 * Runs SQL against the local D1 database of the server under test (`wrangler d1 execute --local`
 * on its `--persist-to` directory), for states no screen can reach in a test's time: a question
 * whose 24-hour deadline has passed.
 */
export async function executeSql(stateDir: string, statement: string) {
  await run(
    WRANGLER,
    ["d1", "execute", "DB", "--local", "--persist-to", stateDir, "--yes", "--command", statement],
    {
      cwd: ROOT,
      env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
      timeout: 60_000,
    },
  );
}
