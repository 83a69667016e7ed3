/**
 * What the Worker gets for `import … from "@remix-run/cloudflare"` (wrangler.toml [alias]): Remix's
 * server runtime as an ES module, and the package's one Cloudflare piece the app uses, `createCookie`.
 * The package itself is CommonJS and re-exports the whole runtime through getters, so the bundler kept
 * all of it (the multipart parser and the session storages among it) whether used or not.
 */
import { createCookieFactory } from "@remix-run/server-runtime";
import { sign, unsign } from "../node_modules/@remix-run/cloudflare/dist/crypto.js";

export * from "@remix-run/server-runtime";

export const createCookie = createCookieFactory({ sign, unsign });
