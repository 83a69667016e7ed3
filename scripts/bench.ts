/**
 * npm run bench: how fast the anonymous public pages are, next to a static file served by the same
 * `wrangler dev`.
 *
 *   npm run bench [-- --duration 10 --connections 10 --rounds 2 --no-rendered --no-build]
 *
 * Builds for production, starts `wrangler dev` on a free port with a fresh seeded state (the
 * end-to-end harness's startServer), warms up, then loads each target with autocannon
 * (10 connections, 10 s, Accept-Encoding gzip), interleaving the targets round after round so drift
 * hits them all alike. Prints req/s, p50 and p99 and each page's ratio to the static file; writes
 * the run to results/bench-<time>.json (and results/bench-latest.json).
 *
 * Local numbers measure this machine and Miniflare, not Cloudflare's edge: compare ratios between
 * runs, not absolute values. Not part of npm test.
 */
import { spawn } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { RESULTS_DIR, ROOT, startServer } from "../tests/e2e/support/server";
import { type Measurement, measure, type Probe, probe, warmUp } from "./lib/bench/load";
import { formatTable, summarize, writeReport } from "./lib/bench/report";
import { defaultTargets } from "./lib/bench/targets";

type Options = {
  durationSeconds: number;
  connections: number;
  rounds: number;
  rendered: boolean;
  build: boolean;
};

function parseArgs(argv: string[]): Options {
  const options: Options = { durationSeconds: 10, connections: 10, rounds: 2, rendered: true, build: true };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    const number = () => {
      const value = Number(argv[++index]);
      if (!Number.isFinite(value) || value <= 0) throw new Error(`${arg} needs a positive number`);
      return value;
    };
    if (arg === "--duration") options.durationSeconds = number();
    else if (arg === "--connections") options.connections = number();
    else if (arg === "--rounds") options.rounds = Math.round(number());
    else if (arg === "--no-rendered") options.rendered = false;
    else if (arg === "--no-build") options.build = false;
    else if (arg === "--help" || arg === "-h") {
      console.log("npm run bench [-- --duration 10 --connections 10 --rounds 2 --no-rendered --no-build]");
      process.exit(0);
    } else throw new Error(`Unknown argument ${arg}`);
  }
  return options;
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      stdio: "inherit",
      env: { ...process.env, NODE_ENV: "production" },
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} exited ${code}`)),
    );
  });
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const targets = defaultTargets({ rendered: options.rendered });
  if (options.build) {
    console.log("[bench] building for production (npm run build)…");
    await run("npm", ["run", "build", "--silent"]);
  }
  console.log("[bench] starting wrangler dev with a fresh seeded state…");
  // ENVIRONMENT=test: Remix's production handler, no error details, and the X-D1-Queries header.
  const server = await startServer({ vars: { ENVIRONMENT: "test" }, logName: "bench-wrangler.log" });
  try {
    console.log(`[bench] ${server.baseUrl}: warming up…`);
    await warmUp(server.baseUrl, targets);
    const probes: Probe[] = [];
    for (const target of targets) probes.push(await probe(server.baseUrl, target));

    const measurements: Measurement[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      for (const target of targets) {
        process.stdout.write(`[bench] round ${round}/${options.rounds}: ${target.name} (${target.path})… `);
        const measurement = await measure(server.baseUrl, target, round, options);
        measurements.push(measurement);
        console.log(`${measurement.requestsPerSecond.toFixed(0)} req/s, p99 ${measurement.latencyP99Ms} ms`);
      }
    }

    const summary = summarize(targets, measurements);
    console.log(`\n${formatTable(summary, probes)}\n`);
    const file = await writeReport(RESULTS_DIR, {
      startedAt: new Date().toISOString(),
      options,
      machine: { cpus: cpus().length, loadAverage: loadavg(), node: process.version },
      probes,
      summary,
      measurements,
    });
    console.log(`[bench] wrote ${file}`);
    const failures = summary.filter((row) => row.errors + row.non2xx > 0);
    if (failures.length > 0) {
      console.error(`[bench] errors or non-2xx answers for: ${failures.map((row) => row.target).join(", ")}`);
      process.exitCode = 1;
    }
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(
    `\n[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  process.exit(1);
});
