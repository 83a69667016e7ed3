import { z } from "zod";

/**
 * Zod for modules that also run in the browser. Zod compiles object parsers with `new Function`
 * when it may, and probes for that by trying it; the Content-Security-Policy forbids eval, so the
 * probe alone would be reported as a violation on every page. `jitless` skips both. Importing `z`
 * from here guarantees the setting is made before any schema is built.
 */
z.config({ jitless: true });

export { z };
