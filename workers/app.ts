import * as build from "virtual:remix-server-build";
import { createRequestHandler } from "@remix-run/cloudflare";
import { isCrossSiteRequest } from "~/auth/csrf";
import { SESSION_COOKIE } from "~/auth/session.server";
import { readCookie } from "~/lib/cookies";
import type { Env } from "./env";
import { BOOKMARK_COOKIE, createLoadContext } from "./load-context";
import { runScheduledTasks } from "./scheduled";

// Remix shows error details only in development mode; every other environment gets the production handler.
const handlers = {
  development: createRequestHandler(build, "development"),
  production: createRequestHandler(build, "production"),
};

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
    let response = await handleRemixRequest(request, context);

    // Carry the D1 bookmark for signed-in users so their next read sees their own writes.
    const bookmark = d1Session?.getBookmark();
    if (
      bookmark &&
      readCookie(request, SESSION_COOKIE) &&
      encodeURIComponent(bookmark) !== readCookie(request, BOOKMARK_COOKIE)
    ) {
      response = new Response(response.body, response);
      response.headers.append(
        "Set-Cookie",
        `${BOOKMARK_COOKIE}=${encodeURIComponent(bookmark)}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=3600`,
      );
    }
    if (!response.headers.has("X-Request-Id")) {
      response = new Response(response.body, response);
      response.headers.set("X-Request-Id", context.requestId);
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

  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduledTasks(env, controller.scheduledTime));
  },
} satisfies ExportedHandler<Env>;
