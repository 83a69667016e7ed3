/**
 * Seeds the local D1 database with the demo marketplace (scripts/demo-data.ts).
 *
 *   npx tsx scripts/seed.ts [--persist-to DIR]      (npm run db:seed)
 *
 * Targets the same local database as `wrangler dev`: .wrangler/state by default, or DIR when given
 * (as with wrangler's own --persist-to). Apply the migrations first (npm run db:migrate).
 *
 * Runs once per database: when the demo accounts already exist it changes nothing (passwords are never
 * re-hashed or overwritten). New rows take ids above any the tables have used, and the whole file runs
 * as one unit, so a failure leaves the database as it was.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { hashPassword } from "../app/auth/password.server";
import { randomToken } from "../tests/factories";
import { buildDemoRows, DEMO_TABLES, type DemoTable, demoAccounts, demoUsernames } from "./lib/demo-rows";
import { renderInserts, sqlLiteral } from "./lib/sql";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const USAGE = "Usage: npx tsx scripts/seed.ts [--persist-to DIR]";

class SeedError extends Error {}

function parseArgs(argv: readonly string[]): { persistTo: string | null } {
  let persistTo: string | null = null;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    if (arg === "--help" || arg === "-h") {
      console.log(USAGE);
      process.exit(0);
    } else if (arg === "--persist-to") {
      const value = argv[++index];
      if (!value) throw new SeedError(`--persist-to needs a directory.\n${USAGE}`);
      persistTo = value;
    } else if (arg.startsWith("--persist-to=")) {
      persistTo = arg.slice("--persist-to=".length);
    } else {
      throw new SeedError(`Unknown argument ${arg}.\n${USAGE}`);
    }
  }
  // Relative to where the command was run, like wrangler's flag; wrangler itself runs from the project.
  return { persistTo: persistTo === null ? null : resolve(process.cwd(), persistTo) };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: strips terminal colour codes from wrangler's output
const ANSI = /\u001b\[[0-9;]*m/g;

/** Runs `wrangler d1 execute DB --local` with `args`; resolves with stdout, rejects with wrangler's error. */
function d1Execute(persistTo: string | null, args: readonly string[]): Promise<string> {
  const wranglerArgs = ["wrangler", "d1", "execute", "DB", "--local"];
  if (persistTo) wranglerArgs.push("--persist-to", persistTo);
  wranglerArgs.push(...args);
  return new Promise((resolvePromise, reject) => {
    const child = spawn("npx", wranglerArgs, {
      cwd: ROOT,
      env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", (error) => reject(new SeedError(`Could not start wrangler: ${error.message}`)));
    child.on("close", (code) => {
      if (code === 0) return resolvePromise(stdout);
      const output = `${stderr}\n${stdout}`.replace(ANSI, "");
      const errors = [jsonErrorText(stdout)]
        .filter((text): text is string => text !== null)
        .concat(output.split("\n").filter((line) => line.includes("[ERROR]")));
      const message = (errors.length > 0 ? errors : output.trim().split("\n").slice(-10))
        .map((line) => line.replace(/^.*\[ERROR\]\s*/, "").trim())
        .join("\n");
      const hint = /no such table/i.test(message)
        ? "\nThe database has no tables yet: apply the migrations first (npm run db:migrate)."
        : "";
      reject(new SeedError(`wrangler d1 execute failed (exit ${code}):\n${message}${hint}`));
    });
  });
}

/** With --json, wrangler reports a failed statement as {"error": {"text": ...}} on stdout. */
function jsonErrorText(stdout: string): string | null {
  try {
    const parsed = JSON.parse(stdout.slice(stdout.indexOf("{")));
    return typeof parsed?.error?.text === "string" ? parsed.error.text : null;
  } catch {
    return null;
  }
}

type D1JsonResult = { results: Record<string, unknown>[]; success: boolean };

/** Runs read-only statements and returns each one's rows. */
async function query(
  persistTo: string | null,
  statements: readonly string[],
): Promise<Record<string, unknown>[][]> {
  const stdout = await d1Execute(persistTo, ["--json", "--command", statements.join(";\n")]);
  let parsed: D1JsonResult[];
  try {
    parsed = JSON.parse(stdout.slice(stdout.indexOf("[")));
  } catch {
    throw new SeedError(`Could not read wrangler's JSON output:\n${stdout.slice(0, 500)}`);
  }
  return parsed.map((result) => result.results);
}

type DatabaseState = {
  existingDemoUsers: string[];
  categoryIds: Map<string, number>;
  firstIds: Record<DemoTable, number>;
};

async function readState(persistTo: string | null, usernames: readonly string[]): Promise<DatabaseState> {
  const names = usernames.map((name) => sqlLiteral(name.toLowerCase())).join(", ");
  // AUTOINCREMENT never hands out an id twice; keep to that by starting above sqlite_sequence too.
  const maxIds = DEMO_TABLES.map((table) => `(SELECT coalesce(max(id), 0) FROM ${table}) AS ${table}`).join(
    ", ",
  );
  const [existing, categories, max, sequences] = await query(persistTo, [
    `SELECT username FROM users WHERE lower(username) IN (${names})`,
    "SELECT id, slug FROM categories",
    `SELECT ${maxIds}`,
    "SELECT name, seq FROM sqlite_sequence",
  ]);
  const used = new Map<string, number>(sequences.map((row) => [String(row.name), Number(row.seq)]));
  const firstIds = Object.fromEntries(
    DEMO_TABLES.map((table) => [table, Math.max(Number(max[0][table]), used.get(table) ?? 0) + 1]),
  ) as Record<DemoTable, number>;
  return {
    existingDemoUsers: existing.map((row) => String(row.username)),
    categoryIds: new Map(categories.map((row) => [String(row.slug), Number(row.id)])),
    firstIds,
  };
}

async function hashPasswords(usernames: readonly string[]): Promise<Map<string, string>> {
  const passwords = new Map<string, string>(
    demoAccounts().map((account) => [account.username, account.password]),
  );
  const entries = await Promise.all(
    usernames.map(
      // Accounts without a demo password get a random one that nobody knows.
      async (username) =>
        [
          username,
          await hashPassword(passwords.get(username) ?? `${crypto.randomUUID()}${randomToken()}`),
        ] as const,
    ),
  );
  return new Map(entries);
}

function printAccounts(): void {
  console.log("\nDemo accounts:");
  for (const account of demoAccounts()) {
    console.log(`  ${account.username.padEnd(16)} ${account.password.padEnd(20)} ${account.shows}`);
  }
}

function displayPath(path: string): string {
  const fromHere = relative(process.cwd(), path);
  return fromHere === "" ? "." : fromHere.startsWith("..") ? path : fromHere;
}

async function main(): Promise<void> {
  const { persistTo } = parseArgs(process.argv.slice(2));
  const target = persistTo ? displayPath(persistTo) : ".wrangler/state (wrangler's default)";
  const usernames = demoUsernames();
  const state = await readState(persistTo, usernames);

  if (state.existingDemoUsers.length === usernames.length) {
    console.log(`Demo data is already in the local D1 database at ${target}: nothing to do.`);
    printAccounts();
    return;
  }
  if (state.existingDemoUsers.length > 0) {
    throw new SeedError(
      `The local D1 database at ${target} already has some demo usernames (${state.existingDemoUsers.join(", ")}) ` +
        "but not all of them, so it was not seeded by this script. Delete the local state " +
        `(${persistTo ?? ".wrangler/state"}), run npm run db:migrate, then seed again.`,
    );
  }

  const rows = buildDemoRows({
    now: new Date(),
    firstIds: state.firstIds,
    existingCategoryIds: state.categoryIds,
    passwordHashes: await hashPasswords(usernames),
    randomToken,
  });
  const statements = renderInserts(rows, DEMO_TABLES);

  const directory = await mkdtemp(join(tmpdir(), "expert-answers-seed-"));
  try {
    const file = join(directory, "seed.sql");
    await writeFile(file, `${statements.join("\n")}\n`);
    await d1Execute(persistTo, ["--file", file]);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }

  const counts = DEMO_TABLES.filter((table) => rows[table].length > 0)
    .map((table) => `${rows[table].length} ${table.replaceAll("_", " ")}`)
    .join(", ");
  console.log(`Seeded the local D1 database at ${target}: ${counts}.`);
  printAccounts();
}

main().catch((error: unknown) => {
  const message =
    error instanceof SeedError
      ? error.message
      : error instanceof Error
        ? (error.stack ?? error.message)
        : String(error);
  console.error(`\nSeeding failed: ${message}`);
  process.exit(1);
});
