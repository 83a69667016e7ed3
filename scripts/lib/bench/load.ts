import { get as httpGet } from "node:http";
import autocannon from "autocannon";
import type { BenchTarget } from "./targets";

/** What a browser sends: pages are compared as they are served to real visitors. */
export const BENCH_HEADERS = {
  "Accept-Encoding": "gzip",
  Accept: "text/html,application/xhtml+xml,*/*;q=0.8",
  "User-Agent": "expert-answers-bench (autocannon)",
};

export type LoadOptions = { connections: number; durationSeconds: number };

export type Measurement = {
  target: string;
  path: string;
  round: number;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  requests: number;
  errors: number;
  non2xx: number;
  bytesPerSecond: number;
};

/** The headers of a target's requests: a browser's, plus the session cookie when it is signed in. */
export function headersFor(target: BenchTarget, cookies: Cookies): Record<string, string> {
  const cookie = target.as ? cookies[target.as] : undefined;
  return cookie ? { ...BENCH_HEADERS, Cookie: cookie } : BENCH_HEADERS;
}

/** Session cookies of the demo accounts the targets use. */
export type Cookies = Partial<Record<NonNullable<BenchTarget["as"]>, string>>;

/** Loads one URL with autocannon for the given time and connections. */
export async function measure(
  baseUrl: string,
  target: BenchTarget,
  round: number,
  { connections, durationSeconds }: LoadOptions,
  cookies: Cookies = {},
): Promise<Measurement> {
  const result = await autocannon({
    url: `${baseUrl}${target.path}`,
    connections,
    duration: durationSeconds,
    headers: headersFor(target, cookies),
  });
  return {
    target: target.name,
    path: target.path,
    round,
    requestsPerSecond: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    bytesPerSecond: result.throughput.average,
  };
}

export type Probe = {
  target: string;
  status: number;
  contentEncoding: string | null;
  bytes: number;
  edgeCache: string | null;
  d1Queries: string | null;
};

/**
 * One request per target: what the server answers (status, size, edge-cache state, D1 round trips).
 * Through node:http rather than fetch, which would unpack gzip: `bytes` is the body as sent.
 */
export function probe(baseUrl: string, target: BenchTarget, cookies: Cookies = {}): Promise<Probe> {
  return new Promise((resolve, reject) => {
    const request = httpGet(
      `${baseUrl}${target.path}`,
      { headers: headersFor(target, cookies) },
      (response) => {
        let bytes = 0;
        response.on("data", (chunk: Buffer) => {
          bytes += chunk.byteLength;
        });
        response.on("error", reject);
        response.on("end", () => {
          const header = (name: string) => {
            const value = response.headers[name];
            return typeof value === "string" ? value : null;
          };
          resolve({
            target: target.name,
            status: response.statusCode ?? 0,
            contentEncoding: header("content-encoding"),
            bytes,
            edgeCache: header("x-edge-cache"),
            d1Queries: header("x-d1-queries"),
          });
        });
      },
    );
    request.on("error", reject);
  });
}

/** Signs a demo account in through /auth (as a browser on the site would) and returns its session cookie. */
export async function signIn(baseUrl: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl}/auth`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: baseUrl },
    body: new URLSearchParams({ intent: "login", username, password }),
  });
  await response.arrayBuffer();
  const cookie = response.headers
    .getSetCookie()
    .map((header) => header.split(";")[0])
    .find((pair) => pair.startsWith("__session=") && pair !== "__session=");
  if (!cookie) throw new Error(`signing in as ${username} failed (${response.status})`);
  return cookie;
}

/** Sends a few sequential requests to each target, so caches and the isolate are warm. */
export async function warmUp(
  baseUrl: string,
  targets: BenchTarget[],
  cookies: Cookies = {},
  requestsEach = 20,
) {
  for (const target of targets) {
    for (let index = 0; index < requestsEach; index++) {
      const response = await fetch(`${baseUrl}${target.path}`, {
        headers: headersFor(target, cookies),
        redirect: "manual",
      });
      if (!response.ok) throw new Error(`warm-up: ${target.path} answered ${response.status}`);
      await response.arrayBuffer();
    }
  }
}
