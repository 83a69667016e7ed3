import * as zod from "zod";

/**
 * Zod for modules that also run in the browser. Zod compiles object parsers with `new Function`
 * when it may, and probes for that by trying it; the Content-Security-Policy forbids eval, so the
 * probe alone would be reported as a violation on every page. `jitless` skips both. Importing
 * `* as z` from here guarantees the setting is made before any schema is built (and, as a namespace
 * import, lets esbuild drop the parts of zod nobody uses, its locales above all).
 */
zod.config({ jitless: true });

export * from "zod";
