/**
 * What the Worker gets for `import … from "@remix-run/cloudflare"` (wrangler.toml [alias]): Remix's
 * server runtime as an ES module, and the package's cookie and session factories built as the package
 * builds them. The package itself is CommonJS and re-exports the whole runtime through getters, so the
 * bundler kept all of it (the multipart parser and the session storages among it) whether used or not;
 * here each factory is marked pure and dropped unless imported. (`createWorkersKVSessionStorage` is
 * not offered: the app keeps its sessions in D1.)
 */
import {
  createCookieFactory,
  createCookieSessionStorageFactory,
  createMemorySessionStorageFactory,
  createSessionStorageFactory,
} from "@remix-run/server-runtime";
import { sign, unsign } from "../node_modules/@remix-run/cloudflare/dist/crypto.js";

export * from "@remix-run/server-runtime";

export const createCookie = /* @__PURE__ */ createCookieFactory({ sign, unsign });
export const createCookieSessionStorage = /* @__PURE__ */ createCookieSessionStorageFactory(createCookie);
export const createSessionStorage = /* @__PURE__ */ createSessionStorageFactory(createCookie);
export const createMemorySessionStorage =
  /* @__PURE__ */ createMemorySessionStorageFactory(createSessionStorage);
