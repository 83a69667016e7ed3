/**
 * wrangler.toml as wrangler itself reads it for each environment. Bindings and `define` are not
 * inherited by `[env.production]`: a deploy with `--env production` must still get every one.
 */

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import { readBrowserManifest } from "../../scripts/lib/browser-manifest";
import { publicPageRouteId } from "../../workers/edge-cache";
import { COMMON_SECURITY_HEADERS } from "../../workers/security-headers";

type Binding = { binding: string } & Record<string, unknown>;
/** The part of wrangler's reading of the file this test compares. */
type WorkerConfig = {
  main?: string;
  compatibility_flags: string[];
  define: Record<string, string>;
  alias?: Record<string, string>;
  d1_databases: Binding[];
  r2_buckets: Binding[];
  kv_namespaces: Binding[];
  assets?: unknown;
  observability?: unknown;
  triggers: { crons?: string[] };
  vars: Record<string, unknown>;
};

const read = (env?: string): WorkerConfig => unstable_readConfig({ config: "wrangler.toml", env });

/** What the Worker needs to run, as one comparable object. */
function runtimeOf(config: WorkerConfig) {
  return {
    main: config.main,
    compatibilityFlags: config.compatibility_flags,
    define: config.define,
    alias: config.alias,
    d1: config.d1_databases.map(({ binding, database_name, database_id, migrations_dir }) => ({
      binding,
      database_name,
      database_id,
      migrations_dir,
    })),
    r2: config.r2_buckets.map(({ binding, bucket_name }) => ({ binding, bucket_name })),
    kv: config.kv_namespaces.map(({ binding, id }) => ({ binding, id })),
    assets: config.assets,
    observability: config.observability,
    crons: config.triggers.crons,
  };
}

describe("wrangler.toml", () => {
  it("gives the production environment every binding, define and alias the local Worker has", () => {
    const local = runtimeOf(read());
    const production = runtimeOf(read("production"));
    expect(local.d1.map((d1) => d1.binding)).toEqual(["DB"]);
    expect(local.r2.map((r2) => r2.binding)).toEqual(["MEDIA"]);
    expect(local.kv.map((kv) => kv.binding)).toEqual(["CACHE"]);
    expect(local.define).toEqual({ "process.env.NODE_ENV": '"production"' });
    expect(production).toEqual(local);
  });

  it("runs production without demo pages and with observability and the cron trigger", () => {
    const production = read("production");
    expect(production.vars).toMatchObject({ ENVIRONMENT: "production", DEMO_MODE: "false" });
    expect(production.observability).toMatchObject({ enabled: true });
    expect(production.triggers.crons).toEqual(["*/5 * * * *"]);
  });
});

describe("public/_headers (the files served without the Worker)", () => {
  /** The headers of the `/*` block, as Workers static assets read them. */
  const everyFile = () => {
    const block = readFileSync("public/_headers", "utf8")
      .split(/\n(?=\/)/)
      .find((part) => part.startsWith("/*\n"));
    return Object.fromEntries(
      (block ?? "")
        .split("\n")
        .slice(1)
        .filter((line) => /^\s+\S/.test(line))
        .map((line) => {
          const [name, ...value] = line.trim().split(": ");
          return [name, value.join(": ")];
        }),
    );
  };

  it("gives every static file the Worker's security headers, and a policy that runs nothing", () => {
    const headers = everyFile();
    for (const name of [
      "Strict-Transport-Security",
      "X-Content-Type-Options",
      "Referrer-Policy",
      "X-Frame-Options",
    ]) {
      expect(headers[name], name).toBe(COMMON_SECURITY_HEADERS[name]);
    }
    expect(headers["Content-Security-Policy"]).toMatch(
      /^default-src 'none';.* frame-ancestors 'none'; sandbox$/,
    );
  });
});

describe("the browser build (public/build, after npm run build)", () => {
  it("names every chunk as Workers static assets spell it, so none is answered with a redirect", () => {
    // The asset server answers a path whose segments are not as encodeURIComponent writes them
    // (a route's `$` or `[.]`) with a 307 to that spelling: a round trip before the page hydrates.
    const { entry, routes } = readBrowserManifest("public");
    const urls = [entry.module, ...entry.imports];
    for (const route of Object.values(routes)) urls.push(route.module, ...(route.imports ?? []));
    expect(urls.length).toBeGreaterThan(Object.keys(routes).length);
    const redirected = urls.filter((url) => url.split("/").map(encodeURIComponent).join("/") !== url);
    expect(redirected).toEqual([]);
  });

  it("makes no page fetch the empty stand-in of a .server module", () => {
    // The browser build swaps each `.server` module for `module.exports = {}`. Left with effects,
    // a route's loader imports kept one 112-byte chunk each in every page's first visit. (A
    // resource route's own module is such a stand-in too, but no page loads it.)
    const { entry, routes } = readBrowserManifest("public");
    const sharedChunks = new Set([
      ...entry.imports,
      ...Object.values(routes).flatMap((route) => route.imports ?? []),
    ]);
    const standIns = [...sharedChunks].filter((url) =>
      /\be\.exports=\{\}/.test(readFileSync(`public${url}`, "utf8")),
    );
    expect(sharedChunks.size).toBeGreaterThan(10);
    expect(standIns).toEqual([]);
  });

  it("loads no Intl formatter on a public page: its first use costs the phone a long task", () => {
    // Chrome loads ICU's locale data for a page's first Intl formatter: one task of about 25 ms,
    // 100 ms at Lighthouse's phone speed, which counts fully towards the page's blocking time.
    const { entry, routes } = readBrowserManifest("public");
    const paths = ["/", "/experts", "/browse", "/about", "/privacy-policy", "/terms-of-service"];
    paths.push("/category/sales", "/experts/1", "/expert/1", "/demo-expert");
    const pageRoutes = [...new Set(paths.map(publicPageRouteId))].map((id) => routes[id ?? ""]);
    expect(pageRoutes.every(Boolean)).toBe(true);
    const modules = new Set([
      entry.module,
      ...entry.imports,
      routes.root.module,
      ...(routes.root.imports ?? []),
    ]);
    for (const route of pageRoutes)
      for (const url of [route.module, ...(route.imports ?? [])]) modules.add(url);
    const usingIntl = [...modules].filter((url) => readFileSync(`public${url}`, "utf8").includes("Intl."));
    expect(usingIntl).toEqual([]);
  });
});
