/**
 * The end-to-end harness.
 *
 * - As vitest's globalSetup (vitest.e2e.config.ts), the default export starts the app once for the
 *   whole run: a fresh temporary D1/R2/KV state with the migrations and the demo seed, `wrangler dev`
 *   on a free port, and stops it (the whole process group) when the run ends.
 * - In tests, import the helpers: `baseUrl()`, `newPage(PHONE | DESKTOP)`, `screenshot(page, name)`.
 *   Each test file gets one Chromium (playwright-core); each `newPage` gets its own context (cookies).
 */
import { inject } from "vitest";
import type { TestProject } from "vitest/node";
import { DESKTOP, openPage, type Viewport } from "./support/browser";
import { startServer } from "./support/server";

export { DESKTOP, PHONE, SCREENSHOTS_DIR, SMALL_PHONE, screenshot, type Viewport } from "./support/browser";

declare module "vitest" {
  export interface ProvidedContext {
    /** Origin of the `wrangler dev` server under test, e.g. http://127.0.0.1:43123 (no trailing slash). */
    e2eBaseUrl: string;
    /** The server's local D1/R2/KV state (`--persist-to`), for tests that must set up rows directly. */
    e2eStateDir: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await startServer();
  console.log(
    `[e2e] wrangler dev is serving ${server.baseUrl} (state ${server.stateDir}, log ${server.logFile})`,
  );
  project.provide("e2eBaseUrl", server.baseUrl);
  project.provide("e2eStateDir", server.stateDir);
  return async () => {
    await server.stop();
  };
}

/** The origin of the server under test. */
export function baseUrl(): string {
  return inject("e2eBaseUrl");
}

/** The server's state directory (wrangler's `--persist-to`). */
export function stateDir(): string {
  return inject("e2eStateDir");
}

/** A page in a fresh browser context; relative URLs go to the server under test: `page.goto("/")`. */
export function newPage(viewport: Viewport = DESKTOP, options: Parameters<typeof openPage>[2] = {}) {
  return openPage(baseUrl(), viewport, options);
}
