import { config } from "zod";

/**
 * Zod for modules that also run in the browser. Zod compiles object parsers with `new Function`
 * when it may, and probes for that by trying it; the Content-Security-Policy forbids eval, so the
 * probe alone would be reported as a violation on every page. `jitless` skips both. Importing
 * `* as z` from here guarantees the setting is made before any schema is built.
 *
 * The exports are named one by one: `export * from "zod"` would make the server build (which leaves
 * zod to wrangler's bundler) re-export zod's whole namespace, and keep every locale in the Worker.
 */
config({ jitless: true });

export type { infer, input, output, ZodType } from "zod";
export {
  array,
  boolean,
  coerce,
  discriminatedUnion,
  email,
  enum,
  literal,
  number,
  object,
  preprocess,
  string,
  toJSONSchema,
  union,
  unknown,
} from "zod";
