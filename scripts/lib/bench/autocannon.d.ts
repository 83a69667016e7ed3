// The part of autocannon's API the benchmark uses (the package ships no types).
declare module "autocannon" {
  type Histogram = {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
  };
  export type Result = {
    url: string;
    duration: number;
    requests: Histogram & { total: number; sent: number };
    latency: Histogram;
    throughput: Histogram & { total: number };
    errors: number;
    timeouts: number;
    non2xx: number;
    "2xx": number;
  };
  export type Options = {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    method?: string;
  };
  function autocannon(options: Options): Promise<Result> & { stop?: () => void };
  export default autocannon;
}
