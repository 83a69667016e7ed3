import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (this file is tests/e2e/support/server.ts). */
export const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const RESULTS_DIR = join(ROOT, "results");

const WRANGLER = join(ROOT, "node_modules", ".bin", "wrangler");
const TSX = join(ROOT, "node_modules", ".bin", "tsx");
const SEED_SCRIPT = join(ROOT, "scripts", "seed.ts");
const SERVER_BUILD = join(ROOT, "build", "server", "index.js");

/** Non-interactive, no telemetry: the same on a laptop and on a CI machine without a terminal. */
const CHILD_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  CI: "true",
  WRANGLER_SEND_METRICS: "false",
  NO_COLOR: "1",
  FORCE_COLOR: "0",
};

const STARTUP_TIMEOUT_MS = 90_000;

/**
 * Where wrangler writes its debug log (WRANGLER_LOG_PATH) for a server started here: inside the
 * state directory, so a test run leaves nothing behind in ~/.config/.wrangler/logs.
 */
export function debugLogOf(stateDir: string): string {
  return join(stateDir, "wrangler-debug.log");
}

export type RunningServer = {
  baseUrl: string;
  stateDir: string;
  logFile: string;
  stop: () => Promise<void>;
};

/** Asks the OS for a port nobody listens on (there is a tiny window before wrangler takes it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (address === null || typeof address === "string") {
        server.close();
        reject(new Error("could not read the port of a probe server"));
        return;
      }
      server.close(() => resolve(address.port));
    });
  });
}

/** A command that ran out of time (its whole process group was killed). */
export class CommandTimeoutError extends Error {}

/**
 * Runs a command to completion in its own process group; rejects with its output when it fails.
 * Past `timeoutMs` the whole group is killed: a wrangler that has exited can leave a workerd behind
 * holding the output pipes, and then the command would never be seen to end.
 */
export function runCommand(
  command: string,
  args: string[],
  label: string,
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 120_000,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { ...CHILD_ENV, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const timer = setTimeout(() => {
      signalGroup(child, "SIGKILL");
      reject(new CommandTimeoutError(`${label} took longer than ${timeoutMs / 1000}s:\n${output}`));
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`${label} could not start: ${error.message}`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`${label} failed (exit ${code ?? signal}):\n${output}`));
    });
  });
}

/** Sends a signal to the whole process group that `child` leads (wrangler and its workerd). */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals) {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

function exited(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

function groupAlive(child: ChildProcess) {
  if (child.pid === undefined) return false;
  try {
    process.kill(-child.pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntilAnswering(baseUrl: string, child: ChildProcess, log: () => string) {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `wrangler dev exited (${child.exitCode ?? child.signalCode}) before answering:\n${log()}`,
      );
    }
    try {
      const response = await fetch(baseUrl, { signal: AbortSignal.timeout(5_000), redirect: "manual" });
      await response.body?.cancel();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`wrangler dev did not answer ${baseUrl} within ${STARTUP_TIMEOUT_MS / 1000}s:\n${log()}`);
}

export type StartServerOptions = {
  /** Worker variables that override wrangler.toml's [vars] (passed as `--var NAME:value`). */
  vars?: Record<string, string>;
  /** File name of wrangler's log under results/ (default e2e-wrangler.log). */
  logName?: string;
  /** More `wrangler dev` arguments (the benchmark passes `--log-level warn`). */
  extraArgs?: string[];
  /** Environment of the wrangler process (the benchmark sets NODE_ENV=production). */
  env?: Record<string, string>;
};

/**
 * Starts the app as `npm start` would, but isolated: a fresh temporary state directory with the
 * migrations and the demo seed, `wrangler dev` on a free port, in its own process group.
 * The end-to-end harness and the benchmark (scripts/bench.ts) both use it.
 */
export async function startServer({
  vars = {},
  logName = "e2e-wrangler.log",
  extraArgs = [],
  env = {},
}: StartServerOptions = {}): Promise<RunningServer> {
  if (!existsSync(SERVER_BUILD)) {
    throw new Error(
      `The end-to-end tests serve the Remix build, and ${SERVER_BUILD} does not exist.\n` +
        "Run `npm run build` first (`npm test` builds before it runs the suites).",
    );
  }
  const stateDir = await mkdtemp(join(tmpdir(), "expert-answers-e2e-"));
  const cleanupState = () => rm(stateDir, { recursive: true, force: true });
  const debugLogEnv = { WRANGLER_LOG_PATH: debugLogOf(stateDir) };
  try {
    await runCommand(
      WRANGLER,
      ["d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir],
      "wrangler d1 migrations apply",
      debugLogEnv,
    );
    if (existsSync(SEED_SCRIPT)) {
      await runCommand(
        TSX,
        [SEED_SCRIPT, "--persist-to", stateDir],
        "the seed (scripts/seed.ts)",
        debugLogEnv,
      );
    } else {
      console.warn(`[e2e] ${SEED_SCRIPT} does not exist yet: the end-to-end database is not seeded.`);
    }
  } catch (error) {
    await cleanupState();
    throw error;
  }

  const port = await freePort();
  const inspectorPort = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  mkdirSync(RESULTS_DIR, { recursive: true });
  const logFile = join(RESULTS_DIR, logName);
  const logStream = createWriteStream(logFile);
  let recent = "";
  let logOpen = true;
  const record = (chunk: Buffer) => {
    if (logOpen) logStream.write(chunk);
    recent = (recent + chunk.toString()).slice(-8_000);
  };

  const child = spawn(
    WRANGLER,
    [
      "dev",
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--inspector-port",
      String(inspectorPort),
      "--persist-to",
      stateDir,
      "--show-interactive-dev-session=false",
      // Lets a test run the cron handler: GET /__scheduled?cron=*/5+*+*+*+* (dev server only).
      "--test-scheduled",
      ...Object.entries(vars).flatMap(([name, value]) => ["--var", `${name}:${value}`]),
      ...extraArgs,
    ],
    // detached: wrangler leads a new process group, so one signal reaches workerd too.
    {
      cwd: ROOT,
      env: { ...CHILD_ENV, ...debugLogEnv, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  child.stdout?.on("data", record);
  child.stderr?.on("data", record);
  // If vitest dies without running the teardown, do not leave wrangler and workerd behind.
  const killOnExit = () => signalGroup(child, "SIGKILL");
  process.once("exit", killOnExit);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    signalGroup(child, "SIGTERM");
    if (!(await exited(child, 5_000))) signalGroup(child, "SIGKILL");
    await exited(child, 5_000);
    // workerd may outlive wrangler for a moment; make sure nothing of the group is left.
    for (let i = 0; i < 20 && groupAlive(child); i++) {
      signalGroup(child, "SIGKILL");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    process.removeListener("exit", killOnExit);
    logOpen = false;
    await new Promise<void>((resolve) => logStream.end(resolve));
    await cleanupState();
  };

  try {
    await waitUntilAnswering(baseUrl, child, () => recent);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, stateDir, logFile, stop };
}
