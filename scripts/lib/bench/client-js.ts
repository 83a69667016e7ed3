import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { createRouteMatcher } from "../../../workers/route-match";
import { readBrowserManifest } from "../browser-manifest";

export type RouteJs = {
  route: string;
  /** Modules the browser loads for a first visit to the route: entry, root, route, their static imports. */
  modules: number;
  gzipBytes: number;
  rawBytes: number;
  /** Whether the route's JavaScript can load Stripe.js (imports, statically or dynamically, the chunk that loads it). */
  loadsStripe: boolean;
};

/** Gzip size (zlib's default level, as servers use) and raw size of every route's first-visit JavaScript. */
export function clientJsPerRoute(publicDir: string): { routes: RouteJs[]; stripeChunks: string[] } {
  const manifest = readBrowserManifest(publicDir);
  const read = (path: string) => readFileSync(join(publicDir, path));
  const sizes = new Map<string, { raw: number; gzip: number }>();
  const sizeOf = (path: string) => {
    let size = sizes.get(path);
    if (!size) {
      const bytes = read(path);
      size = { raw: bytes.byteLength, gzip: gzipSync(bytes).byteLength };
      sizes.set(path, size);
    }
    return size;
  };
  // The chunks that fetch Stripe.js from js.stripe.com (@stripe/stripe-js), and every chunk that imports one.
  const buildFiles = (dir: string): string[] =>
    readdirSync(join(publicDir, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? buildFiles(`${dir}/${entry.name}`)
        : entry.name.endsWith(".js")
          ? [`${dir}/${entry.name}`]
          : [],
    );
  const files = buildFiles("build");
  const stripeChunks = files.filter((file) => read(file).toString("utf8").includes("js.stripe.com"));
  const mentionsStripe = (file: string) => {
    const text = read(file).toString("utf8");
    return stripeChunks.some((chunk) => chunk === file || text.includes(chunk.split("/").pop() ?? chunk));
  };

  const base = [manifest.entry.module, ...manifest.entry.imports];
  const root = manifest.routes.root;
  const routes = Object.values(manifest.routes)
    .filter((route) => route.id !== "root")
    .map((route) => {
      const modules = new Set([
        ...base,
        root.module,
        ...(root.imports ?? []),
        route.module,
        ...(route.imports ?? []),
      ]);
      let gzipBytes = 0;
      let rawBytes = 0;
      for (const module of modules) {
        const size = sizeOf(module.replace(/^\//, ""));
        gzipBytes += size.gzip;
        rawBytes += size.raw;
      }
      const loadsStripe = [...modules].some((module) => mentionsStripe(module.replace(/^\//, "")));
      return { route: route.id, modules: modules.size, gzipBytes, rawBytes, loadsStripe };
    })
    .sort((a, b) => a.route.localeCompare(b.route));
  return { routes, stripeChunks };
}

/** The route (id) that serves each path, from the browser manifest. */
export function routeMatcherFromBuild(publicDir: string) {
  return createRouteMatcher(readBrowserManifest(publicDir).routes);
}
