/**
 * npm run bench: how fast the app is, against the budgets of issue 11 (scripts/lib/bench/budgets.ts).
 *
 *   npm run bench [-- --duration 10 --connections 10 --rounds 2 --no-rendered --no-build
 *                     --no-lighthouse --lighthouse-runs 3]
 *
 * 1. Builds for production (NODE_ENV=production) and starts `wrangler dev` with warn-level logging
 *    (wrangler's and the Worker's per-request line) on a free port with a fresh seeded state.
 * 2. Reads D1 round trips per page from the Worker's X-D1-Queries header (counted by the database
 *    wrapper; sent outside ENVIRONMENT=production only, and the bench runs ENVIRONMENT=test, which
 *    is Remix's production mode without the production-only Stripe and demo checks): once on a cold
 *    render (empty KV and edge cache), once warm.
 * 3. Loads a static file, the anonymous home, browse, category and profile pages (edge cache warm),
 *    the profile and the ask page signed in, with autocannon (10 connections, 10 s after a warm-up,
 *    Accept-Encoding: gzip), round after round so drift hits every target alike; then each public
 *    page and the static file with one connection, for the p50 comparison.
 * 4. Client JavaScript per route (gzip) from the build manifest, and which routes can load Stripe.js.
 * 5. The Worker bundle as `wrangler deploy --dry-run --minify` makes it.
 * 6. Lighthouse (mobile preset, median of 3) for home, browse and profile.
 *
 * Prints tables, writes results/bench-<time>.json (and bench-latest.json), and exits 1 when a budget
 * is missed. Local numbers measure this machine and Miniflare, not Cloudflare's edge.
 */
import { spawn } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { DEMO_ACCOUNTS } from "../app/lib/demo-accounts";
import { SCREENS } from "../tests/e2e/support/screens";
import { RESULTS_DIR, ROOT, startServer } from "../tests/e2e/support/server";
import { BUDGETS, type BudgetCheck, check, formatBudgets, kib } from "./lib/bench/budgets";
import { clientJsPerRoute, routeMatcherFromBuild } from "./lib/bench/client-js";
import { type LighthouseResult, lighthouseMobile } from "./lib/bench/lighthouse";
import {
  BENCH_HEADERS,
  type Cookies,
  type Measurement,
  measure,
  type Probe,
  probe,
  signIn,
  warmUp,
} from "./lib/bench/load";
import { formatTable, type Summary, summarize, writeReport } from "./lib/bench/report";
import { type BenchTarget, defaultTargets } from "./lib/bench/targets";
import { type WorkerSize, workerBundleSize } from "./lib/bench/worker-size";

type Options = {
  durationSeconds: number;
  connections: number;
  rounds: number;
  singleDurationSeconds: number;
  rendered: boolean;
  build: boolean;
  lighthouse: boolean;
  lighthouseRuns: number;
};

const USAGE =
  "npm run bench [-- --duration 10 --connections 10 --rounds 2 --single-duration 5 --no-rendered --no-build --no-lighthouse --lighthouse-runs 3]";

function parseArgs(argv: string[]): Options {
  const options: Options = {
    durationSeconds: 10,
    connections: 10,
    rounds: 2,
    singleDurationSeconds: 5,
    rendered: true,
    build: true,
    lighthouse: true,
    lighthouseRuns: 3,
  };
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
    else if (arg === "--single-duration") options.singleDurationSeconds = number();
    else if (arg === "--no-rendered") options.rendered = false;
    else if (arg === "--no-build") options.build = false;
    else if (arg === "--no-lighthouse") options.lighthouse = false;
    else if (arg === "--lighthouse-runs") options.lighthouseRuns = Math.round(number());
    else if (arg === "--help" || arg === "-h") {
      console.log(USAGE);
      process.exit(0);
    } else throw new Error(`Unknown argument ${arg}\n${USAGE}`);
  }
  return options;
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: "inherit", env: process.env });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} exited ${code}`)),
    );
  });
}

/** D1 round trips of one request to each target, as the Worker counts them. */
async function d1Counts(baseUrl: string, targets: BenchTarget[], cookies: Cookies) {
  const counts: Record<string, number | null> = {};
  for (const target of targets) {
    const result = await probe(baseUrl, target, cookies);
    counts[target.name] = result.d1Queries === null ? null : Number(result.d1Queries);
  }
  return counts;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column].length)),
  );
  const render = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
      .join("  ");
  return [render(header), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(render)].join(
    "\n",
  );
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  process.env.NODE_ENV = "production";
  const targets = defaultTargets({ rendered: options.rendered });
  const baseline = targets.find((target) => target.baseline);
  const publicPages = targets.filter((target) => target.publicPage);
  if (!baseline) throw new Error("no baseline target");

  if (options.build) {
    console.log("[bench] building for production (npm run build, NODE_ENV=production)…");
    await run("npm", ["run", "build", "--silent"]);
  }

  // Static measurements first: they need the build only.
  const publicDir = join(ROOT, "public");
  const clientJs = clientJsPerRoute(publicDir);
  const routeOf = routeMatcherFromBuild(publicDir);
  console.log("[bench] measuring the Worker bundle (wrangler deploy --dry-run --minify)…");
  const worker: WorkerSize = await workerBundleSize(ROOT);

  console.log(
    "[bench] starting wrangler dev (NODE_ENV=production, warn-level logs) with a fresh seeded state…",
  );
  const server = await startServer({
    vars: { ENVIRONMENT: "test", LOG_LEVEL: "warn" },
    logName: "bench-wrangler.log",
    extraArgs: ["--log-level", "warn"],
    env: { NODE_ENV: "production" },
  });
  const checks: BudgetCheck[] = [];
  try {
    const { username, password } = DEMO_ACCOUNTS.client;
    const cookies: Cookies = { client: await signIn(server.baseUrl, username, password) };

    // D1 round trips: a cold render (nothing in KV or the edge cache yet), then warm.
    const renderTargets = targets.filter((target) => !target.baseline && !target.name.includes("(rendered)"));
    const coldRender = await d1Counts(
      server.baseUrl,
      renderTargets.map((target) => ({ ...target, path: `${target.path}?bench=cold` })),
      cookies,
    );
    console.log(`[bench] ${server.baseUrl}: warming up…`);
    await warmUp(server.baseUrl, targets, cookies);
    const warmRender = await d1Counts(
      server.baseUrl,
      renderTargets.map((target) => ({ ...target, path: `${target.path}?bench=warm` })),
      cookies,
    );
    const probes: Probe[] = [];
    for (const target of targets) probes.push(await probe(server.baseUrl, target, cookies));

    const measurements: Measurement[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      for (const target of targets) {
        process.stdout.write(`[bench] round ${round}/${options.rounds}: ${target.name} (${target.path})… `);
        const measurement = await measure(server.baseUrl, target, round, options, cookies);
        measurements.push(measurement);
        console.log(`${measurement.requestsPerSecond.toFixed(0)} req/s, p99 ${measurement.latencyP99Ms} ms`);
      }
    }
    // One connection: the latency a single visitor sees, page against static file.
    const singleTargets = [baseline, ...publicPages];
    const single: Measurement[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      for (const target of singleTargets) {
        process.stdout.write(`[bench] one connection, round ${round}: ${target.name}… `);
        const measurement = await measure(
          server.baseUrl,
          target,
          round,
          { connections: 1, durationSeconds: options.singleDurationSeconds },
          cookies,
        );
        single.push(measurement);
        console.log(`p50 ${measurement.latencyP50Ms} ms`);
      }
    }

    let lighthouse: LighthouseResult[] = [];
    let lighthouseError: string | null = null;
    if (options.lighthouse) {
      console.log(`[bench] Lighthouse (mobile, ${options.lighthouseRuns} runs each): home, browse, profile…`);
      try {
        lighthouse = await lighthouseMobile(
          server.baseUrl,
          [
            { target: "home", path: "/" },
            { target: "browse", path: "/experts" },
            { target: "profile", path: publicPages.find((page) => page.name === "profile")?.path ?? "/" },
          ],
          options.lighthouseRuns,
        );
      } catch (error) {
        lighthouseError = error instanceof Error ? error.message : String(error);
      }
    }

    // ---- Report ----
    const summary = summarize(targets, measurements);
    const singleSummary = summarize(singleTargets, single);
    const row = (rows: Summary[], name: string) => rows.find((entry) => entry.target === name);
    console.log(
      `\nLoad: ${options.connections} connections, ${options.durationSeconds} s per run, ${options.rounds} interleaved rounds`,
    );
    console.log(`${formatTable(summary, probes)}\n`);

    const staticSingle = row(singleSummary, baseline.name);
    console.log(
      `One connection (${options.singleDurationSeconds} s per run):\n${table(
        ["target", "p50 ms", "p99 ms", "p50 vs static"],
        singleSummary.map((entry) => [
          entry.target,
          entry.latencyP50Ms.toFixed(1),
          entry.latencyP99Ms.toFixed(1),
          staticSingle
            ? `${entry.latencyP50Ms - staticSingle.latencyP50Ms >= 0 ? "+" : ""}${(entry.latencyP50Ms - staticSingle.latencyP50Ms).toFixed(1)} ms`
            : "-",
        ]),
      )}\n`,
    );

    console.log(
      `D1 round trips per request (X-D1-Queries; a batch counts once):\n${table(
        ["target", "cold render", "warm render", "as served"],
        renderTargets.map((target) => [
          target.name,
          String(coldRender[target.name] ?? "-"),
          String(warmRender[target.name] ?? "-"),
          probes.find((entry) => entry.target === target.name)?.d1Queries ?? "-",
        ]),
      )}\n`,
    );

    const interesting = new Map<string, string[]>();
    for (const target of targets.filter((entry) => !entry.baseline && !entry.name.includes("(rendered)"))) {
      const id = routeOf(target.path.split("?")[0]);
      if (id) interesting.set(id, [...(interesting.get(id) ?? []), target.name]);
    }
    const pageRoutes = clientJs.routes.filter((route) =>
      SCREENS.some((screen) => routeOf(screen.path.split("?")[0]) === route.route),
    );
    console.log(
      `Client JavaScript per route, first visit (entry + root + route and their static imports, gzip):\n${table(
        ["route", "modules", "gzip", "raw", "Stripe.js", "bench target"],
        pageRoutes.map((route) => [
          route.route,
          String(route.modules),
          `${kib(route.gzipBytes)} (${route.gzipBytes} B)`,
          kib(route.rawBytes),
          route.loadsStripe ? "may load" : "never",
          (interesting.get(route.route) ?? []).join(", "),
        ]),
      )}\n`,
    );
    console.log(
      `Worker bundle (wrangler deploy --dry-run --minify): ${worker.file} ${worker.minifiedBytes} B minified (${kib(worker.minifiedBytes)}), ${kib(worker.gzipBytes)} gzip\n`,
    );
    if (options.lighthouse) {
      if (lighthouseError) console.log(`Lighthouse could not run: ${lighthouseError}\n`);
      else
        console.log(
          `Lighthouse, mobile preset (simulated slow 4G, 4x CPU slowdown), median of ${options.lighthouseRuns}:\n${table(
            ["page", "LCP ms", "TBT ms", "CLS", "total bytes", "score", "each run (LCP ms, TBT ms)"],
            lighthouse.map((result) => [
              `${result.target} (${result.path})`,
              result.median.lcpMs.toFixed(0),
              result.median.tbtMs.toFixed(0),
              result.median.cls.toFixed(3),
              `${kib(result.median.totalBytes)}`,
              result.median.score.toFixed(2),
              result.runs.map((run) => `${run.lcpMs.toFixed(0)}, ${run.tbtMs.toFixed(0)}`).join(" / "),
            ]),
          )}\n`,
        );
      for (const result of lighthouse) {
        for (const failure of result.retried)
          console.log(`Measured again after: ${failure} (${result.path})`);
      }
    }

    // ---- Budgets ----
    const staticRps = row(summary, baseline.name)?.requestsPerSecond ?? 0;
    for (const name of ["home", "browse", "profile"]) {
      const ratio = (row(summary, name)?.requestsPerSecond ?? 0) / Math.max(staticRps, 1);
      checks.push(
        check(
          `${name} req/s vs static (edge-cached)`,
          ratio >= BUDGETS.publicPageRatio,
          `>= ${BUDGETS.publicPageRatio}`,
          ratio.toFixed(2),
        ),
      );
    }
    const signedInRatio =
      (row(summary, "profile (signed in)")?.requestsPerSecond ?? 0) / Math.max(staticRps, 1);
    checks.push(
      check(
        "profile signed in req/s vs static",
        signedInRatio >= BUDGETS.signedInProfileRatio,
        `>= ${BUDGETS.signedInProfileRatio}`,
        signedInRatio.toFixed(2),
      ),
    );
    for (const page of publicPages) {
      const delta =
        (row(singleSummary, page.name)?.latencyP50Ms ?? Number.POSITIVE_INFINITY) -
        (staticSingle?.latencyP50Ms ?? 0);
      checks.push(
        check(
          `${page.name} one-connection p50 - static's`,
          delta <= BUDGETS.singleConnectionP50DeltaMs,
          `<= ${BUDGETS.singleConnectionP50DeltaMs} ms`,
          `${delta.toFixed(1)} ms`,
        ),
      );
    }
    for (const page of publicPages) {
      const worst = Math.max(
        coldRender[page.name] ?? Number.POSITIVE_INFINITY,
        warmRender[page.name] ?? Number.POSITIVE_INFINITY,
      );
      checks.push(
        check(
          `${page.name} D1 round trips per render`,
          worst <= BUDGETS.d1QueriesPerPublicPage,
          `<= ${BUDGETS.d1QueriesPerPublicPage}`,
          String(worst),
        ),
      );
    }
    for (const page of publicPages) {
      const route = clientJs.routes.find((entry) => entry.route === routeOf(page.path));
      const bytes = route?.gzipBytes ?? Number.POSITIVE_INFINITY;
      checks.push(
        check(
          `${page.name} client JS (gzip)`,
          bytes <= BUDGETS.clientJsPerPublicPageBytes,
          `<= ${kib(BUDGETS.clientJsPerPublicPageBytes)}`,
          `${kib(bytes)}`,
        ),
      );
    }
    const paymentRoutes = new Set(
      SCREENS.filter((screen) => screen.payment).map((screen) => routeOf(screen.path.split("?")[0])),
    );
    const strayStripe = clientJs.routes.filter(
      (route) => route.loadsStripe && !paymentRoutes.has(route.route),
    );
    checks.push(
      check(
        "Stripe.js only on paying screens",
        strayStripe.length === 0 && clientJs.stripeChunks.length > 0,
        [...paymentRoutes].join(", "),
        strayStripe.length === 0
          ? `only ${clientJs.routes
              .filter((route) => route.loadsStripe)
              .map((route) => route.route)
              .join(", ")}`
          : `also ${strayStripe.map((route) => route.route).join(", ")}`,
      ),
    );
    if (options.lighthouse) {
      if (lighthouseError || lighthouse.length === 0) {
        checks.push(check("Lighthouse ran", false, "3 pages", lighthouseError ?? "no results"));
      }
      for (const result of lighthouse) {
        checks.push(
          check(
            `${result.target} Lighthouse LCP`,
            result.median.lcpMs <= BUDGETS.lcpMs,
            `<= ${BUDGETS.lcpMs} ms`,
            `${result.median.lcpMs.toFixed(0)} ms`,
          ),
        );
        checks.push(
          check(
            `${result.target} Lighthouse TBT`,
            result.median.tbtMs <= BUDGETS.tbtMs,
            `<= ${BUDGETS.tbtMs} ms`,
            `${result.median.tbtMs.toFixed(0)} ms`,
          ),
        );
        checks.push(
          check(
            `${result.target} Lighthouse CLS`,
            result.median.cls <= BUDGETS.cls,
            `<= ${BUDGETS.cls}`,
            result.median.cls.toFixed(3),
          ),
        );
      }
    }
    checks.push(
      check(
        "Worker bundle (minified)",
        worker.minifiedBytes <= BUDGETS.workerBundleBytes,
        "<= 1 MiB",
        kib(worker.minifiedBytes),
      ),
    );
    const errors = summary.filter((entry) => entry.errors + entry.non2xx > 0);
    checks.push(
      check(
        "no errors or non-2xx under load",
        errors.length === 0,
        "0",
        errors.length === 0 ? "0" : errors.map((entry) => entry.target).join(", "),
      ),
    );

    console.log(`Budgets:\n${formatBudgets(checks)}\n`);
    const file = await writeReport(RESULTS_DIR, {
      startedAt: new Date().toISOString(),
      options,
      machine: { cpus: cpus().length, loadAverage: loadavg(), node: process.version },
      headers: BENCH_HEADERS,
      probes,
      summary,
      singleConnection: singleSummary,
      d1: { coldRender, warmRender },
      clientJs: clientJs.routes,
      stripeChunks: clientJs.stripeChunks,
      worker,
      lighthouse,
      lighthouseError,
      budgets: BUDGETS,
      checks,
      measurements,
      singleMeasurements: single,
    });
    console.log(`[bench] wrote ${file}`);
    const missed = checks.filter((entry) => !entry.pass);
    if (missed.length > 0) {
      console.error(
        `[bench] ${missed.length} budget(s) missed: ${missed.map((entry) => entry.budget).join("; ")}`,
      );
      process.exitCode = 1;
    } else console.log("[bench] every budget met");
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
