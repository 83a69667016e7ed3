import * as build from "virtual:remix-server-build";
import { createRequestHandler } from "@remix-run/cloudflare";
import { isCrossSiteRequest } from "~/auth/csrf";
import { SESSION_COOKIE } from "~/auth/session.server";
import { readCookie } from "~/lib/cookies";
import { PRIVATE_CACHE_CONTROL } from "~/services/cache.server";
import { serveWithEdgeCache } from "./edge-cache";
import type { Env } from "./env";
import { BOOKMARK_COOKIE, createLoadContext } from "./load-context";
import { runScheduledTasks } from "./scheduled";

// Remix shows error details only in development mode; every other environment gets the production handler.
const handlers = {
  development: createRequestHandler(build, "development"),
  production: createRequestHandler(build, "production"),
};

/** A document or a Remix data request (not an image, audio or other file). */
function isPage(request: Request, response: Response) {
  const type = response.headers.get("Content-Type") ?? "";
  return type.startsWith("text/html") || new URL(request.url).pathname.endsWith(".data");
}

export default {
  async fetch(request, env, ctx) {
    const started = Date.now();
    let state: ReturnType<typeof createLoadContext>;
    try {
      state = createLoadContext(request, env, ctx);
    } catch (error) {
      console.error(JSON.stringify({ level: "error", message: "configuration", error: String(error) }));
      return new Response("The service is misconfigured.", { status: 500 });
    }
    const { context, d1Session } = state;
    if (isCrossSiteRequest(request)) {
      return new Response("Cross-site requests are not allowed.", { status: 403 });
    }
    const handleRemixRequest =
      context.config.environment === "development" ? handlers.development : handlers.production;
    // Anonymous visitors' public pages may come from the edge cache (workers/edge-cache.ts).
    let response = await serveWithEdgeCache(request, () => handleRemixRequest(request, context), {
      // The DOM lib's CacheStorage type (tsconfig) hides the Workers-only `default` cache.
      cache: (caches as unknown as { default: Cache }).default,
      waitUntil: (promise) => ctx.waitUntil(promise),
      buildVersion: build.assets.version,
    });
    const signedIn = Boolean(readCookie(request, SESSION_COOKIE));
    if (
      signedIn &&
      isPage(request, response) &&
      /\bpublic\b/i.test(response.headers.get("Cache-Control") ?? "")
    ) {
      // Belt and braces: no page answered to a session may be kept by a shared cache.
      response = new Response(response.body, response);
      response.headers.set("Cache-Control", PRIVATE_CACHE_CONTROL);
    }

    // Carry the D1 bookmark for signed-in users so their next read sees their own writes.
    const bookmark = d1Session?.getBookmark();
    if (bookmark && signedIn && encodeURIComponent(bookmark) !== readCookie(request, BOOKMARK_COOKIE)) {
      response = new Response(response.body, response);
      response.headers.append(
        "Set-Cookie",
        `${BOOKMARK_COOKIE}=${encodeURIComponent(bookmark)}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=3600`,
      );
    }
    if (!response.headers.has("X-Request-Id") || !context.config.isProduction) {
      response = new Response(response.body, response);
      response.headers.set("X-Request-Id", context.requestId);
      // Outside production, say how many D1 round trips the request made (tests and the benchmark).
      if (!context.config.isProduction) response.headers.set("X-D1-Queries", String(context.queries.count));
    }
    console.log(
      JSON.stringify({
        level: "info",
        requestId: context.requestId,
        method: request.method,
        path: new URL(request.url).pathname,
        status: response.status,
        durationMs: Date.now() - started,
        d1Queries: context.queries.count,
      }),
    );
    return response;
  },

  async scheduled(controller, env) {
    // Awaited (not waitUntil): the invocation lives until the work is done, and wrangler's
    // /__scheduled test endpoint answers once it is.
    await runScheduledTasks(env, controller.scheduledTime, { cron: controller.cron });
  },
} satisfies ExportedHandler<Env>;
