/** The bindings declared in wrangler.toml. Variables and secrets are checked by app/config.server.ts. */
export interface Env {
  DB: D1Database;
  MEDIA: R2Bucket;
  CACHE: KVNamespace;
  ASSETS: Fetcher;
  [variable: string]: unknown;
}
