import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { findChromium } from "../../../tests/e2e/support/browser";

export type LighthouseRun = { lcpMs: number; tbtMs: number; cls: number; totalBytes: number; score: number };
export type LighthouseResult = {
  target: string;
  path: string;
  runs: LighthouseRun[];
  median: LighthouseRun;
  /** Runs that failed to load the page and were measured again (the message of each failure). */
  retried: string[];
};

/**
 * How many times one run may fail before Lighthouse's error stands. `wrangler dev`'s proxy now and
 * then holds a response back for about 30 s (the e2e suite retries the same stall), and Lighthouse
 * then reports that the page never painted (NO_FCP): a failed measurement, not a slow page.
 */
const ATTEMPTS_PER_RUN = 3;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * Lighthouse's mobile preset (the default: a mid-range phone, simulated slow 4G and a 4x slower CPU)
 * against `baseUrl + path`, `runs` times in one Chromium (the e2e suite's: findChromium), reporting
 * each run and the median of each figure.
 */
export async function lighthouseMobile(
  baseUrl: string,
  pages: { target: string; path: string }[],
  runs = 3,
): Promise<LighthouseResult[]> {
  const choice = await findChromium();
  const chrome = await chromeLauncher.launch({
    chromePath: choice.executablePath,
    chromeFlags: [
      ...choice.args.filter((arg) => !arg.startsWith("--headless")),
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
    ],
    logLevel: "silent",
  });
  try {
    const results: LighthouseResult[] = [];
    for (const page of pages) {
      const measured: LighthouseRun[] = [];
      const retried: string[] = [];
      for (let run = 0; run < runs; run++) {
        for (let attempt = 1; ; attempt++) {
          const result = await lighthouse(`${baseUrl}${page.path}`, {
            port: chrome.port,
            output: "json",
            logLevel: "error",
            onlyCategories: ["performance"],
          });
          if (!result) throw new Error(`Lighthouse returned nothing for ${page.path}`);
          const { audits, categories, runtimeError } = result.lhr;
          if (runtimeError) {
            const failure = `Lighthouse: ${runtimeError.code} ${runtimeError.message}`;
            if (attempt === ATTEMPTS_PER_RUN) throw new Error(`${failure} (${page.path}, ${attempt} tries)`);
            console.log(
              `[bench] Lighthouse ${page.path}, run ${run + 1}: ${runtimeError.code}; trying again`,
            );
            retried.push(failure);
            continue;
          }
          measured.push({
            lcpMs: audits["largest-contentful-paint"]?.numericValue ?? Number.NaN,
            tbtMs: audits["total-blocking-time"]?.numericValue ?? Number.NaN,
            cls: audits["cumulative-layout-shift"]?.numericValue ?? Number.NaN,
            totalBytes: audits["total-byte-weight"]?.numericValue ?? Number.NaN,
            score: categories.performance?.score ?? Number.NaN,
          });
          break;
        }
      }
      results.push({
        ...page,
        runs: measured,
        retried,
        median: {
          lcpMs: median(measured.map((run) => run.lcpMs)),
          tbtMs: median(measured.map((run) => run.tbtMs)),
          cls: median(measured.map((run) => run.cls)),
          totalBytes: median(measured.map((run) => run.totalBytes)),
          score: median(measured.map((run) => run.score)),
        },
      });
    }
    return results;
  } finally {
    chrome.kill();
  }
}
