import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Measurement, Probe } from "./load";
import type { BenchTarget } from "./targets";

export type Summary = {
  target: string;
  path: string;
  rounds: number;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  errors: number;
  non2xx: number;
  /** Requests per second relative to the static file (1 = as fast as a static file). */
  ratioToStatic: number | null;
};

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Combines the rounds of each target (mean throughput, median latencies) and the ratio to the baseline. */
export function summarize(targets: BenchTarget[], measurements: Measurement[]): Summary[] {
  const rows = targets.map((target) => {
    const runs = measurements.filter((measurement) => measurement.target === target.name);
    return {
      target: target.name,
      path: target.path,
      rounds: runs.length,
      requestsPerSecond: mean(runs.map((run) => run.requestsPerSecond)),
      latencyP50Ms: median(runs.map((run) => run.latencyP50Ms)),
      latencyP99Ms: median(runs.map((run) => run.latencyP99Ms)),
      errors: runs.reduce((sum, run) => sum + run.errors, 0),
      non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
      ratioToStatic: null as number | null,
    };
  });
  const baselineName = targets.find((target) => target.baseline)?.name;
  const baseline = rows.find((row) => row.target === baselineName);
  for (const row of rows) {
    row.ratioToStatic =
      baseline && baseline.requestsPerSecond > 0 ? row.requestsPerSecond / baseline.requestsPerSecond : null;
  }
  return rows;
}

/** A plain-text table for the terminal. */
export function formatTable(rows: Summary[], probes: Probe[]): string {
  const header = [
    "target",
    "req/s",
    "p50 ms",
    "p99 ms",
    "vs static",
    "edge cache",
    "D1",
    "body bytes",
    "errors",
  ];
  const lines = rows.map((row) => {
    const probe = probes.find((entry) => entry.target === row.target);
    return [
      row.target,
      row.requestsPerSecond.toFixed(0),
      row.latencyP50Ms.toFixed(1),
      row.latencyP99Ms.toFixed(1),
      row.ratioToStatic === null ? "-" : `${(row.ratioToStatic * 100).toFixed(0)}%`,
      probe?.edgeCache ?? "-",
      probe?.d1Queries ?? "-",
      probe ? `${probe.bytes}${probe.contentEncoding ? ` (${probe.contentEncoding})` : ""}` : "-",
      String(row.errors + row.non2xx),
    ];
  });
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => line[column].length)),
  );
  const render = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
      .join("  ");
  return [render(header), widths.map((width) => "-".repeat(width)).join("  "), ...lines.map(render)].join(
    "\n",
  );
}

/** Writes the run as JSON under results/ and returns the file's path. */
export async function writeReport(resultsDir: string, report: Record<string, unknown>): Promise<string> {
  await mkdir(resultsDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const file = join(resultsDir, `bench-${stamp}.json`);
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(join(resultsDir, "bench-latest.json"), `${JSON.stringify(report, null, 2)}\n`);
  return file;
}
