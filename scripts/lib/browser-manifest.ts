import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ManifestRoute } from "../../workers/route-match";

/** The browser build's manifest (public/build/manifest-*.js): every route's module and its static imports. */
export type BrowserManifest = {
  entry: { module: string; imports: string[] };
  routes: Record<string, ManifestRoute & { module: string; imports?: string[] }>;
};

/** Reads the manifest of the browser build in `publicDir` (Remix empties the build folder on every build). */
export function readBrowserManifest(publicDir: string): BrowserManifest {
  const buildDir = join(publicDir, "build");
  const file = readdirSync(buildDir).find((name) => /^manifest-[A-Z0-9]+\.js$/i.test(name));
  if (!file) throw new Error(`No manifest-*.js in ${buildDir}: run npm run build first.`);
  const source = readFileSync(join(buildDir, file), "utf8");
  return JSON.parse(source.slice(source.indexOf("{"), source.lastIndexOf("}") + 1));
}
