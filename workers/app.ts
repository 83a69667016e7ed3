import * as build from "virtual:remix-server-build";
import { type AppLoadContext, createRequestHandler } from "@remix-run/cloudflare";
import { crossSiteRefusal, isCrossSiteRequest } from "~/auth/csrf";
import { SESSION_COOKIE } from "~/auth/session.server";
import { readCookie } from "~/lib/cookies";
import type { runScheduledTasks } from "~/models/scheduled-tasks.server";
import { PRIVATE_CACHE_CONTROL } from "~/services/cache.server";
import { HotCopies, purgeEdgePages, serveWithEdgeCache } from "./edge-cache";
import type { Env } from "./env";
import { BOOKMARK_COOKIE, createLoadContext, requestBookmark } from "./load-context";
import { readToTheEnd } from "./request-body";
import { createRouteMatcher } from "./route-match";
import { applySecurityHeaders } from "./security-headers";

// Remix shows error details only in development mode; every other environment gets the production handler.
const handlers = {
  development: createRequestHandler(build, "development"),
  production: createRequestHandler(build, "production"),
};

/** What app/entry.server.tsx exports beside Remix's own entry functions. */
const appEntry = build.entry.module as typeof build.entry.module & {
  runScheduledTasks: typeof runScheduledTasks;
};

/** The route that answers a path, for the request log (built once per isolate from the build). */
const routeIdOf = createRouteMatcher(build.routes);

/**
 * A response that is personal when a session asked for it: every page and data request, JSON,
 * CSV, text, audio. Public images and static files are the same for everyone.
 */
function isPrivateKind(request: Request, response: Response) {
  if (new URL(request.url).pathname.startsWith("/media/images/")) return false;
  const type = (response.headers.get("Content-Type") ?? "").toLowerCase();
  return !(type.startsWith("image/") || type.startsWith("font/") || type.includes("javascript"));
}

/**
 * The methods a route answers, for a 405 or an OPTIONS: those it names (API routes export
 * `allowedMethods`), else its loader's, and POST when it has an action.
 */
function allowedMethods(pathname: string): string {
  const id = routeIdOf(pathname);
  const module: { action?: unknown; allowedMethods?: unknown } | undefined = id
    ? build.routes[id]?.module
    : undefined;
  if (Array.isArray(module?.allowedMethods)) return module.allowedMethods.join(", ");
  return module?.action ? "GET, HEAD, POST" : "GET, HEAD";
}

/** `/api` itself is the API's too: its unknown-call route answers it in JSON. */
const isApiPath = (pathname: string) => pathname === "/api" || pathname.startsWith("/api/");

/**
 * Pages and their forms take GET, HEAD and POST; other methods are the API's. Remix would run a
 * page's action for a PUT or a DELETE too.
 */
const isPageMethodRefused = (request: Request, pathname: string) =>
  !["GET", "HEAD", "POST", "OPTIONS"].includes(request.method) &&
  !isApiPath(pathname) &&
  routeIdOf(pathname) !== null;

/**
 * Remix still answers its pre-single-fetch `?_data=` requests: it runs the route's action, then may
 * fail to shape the answer (a 500 after the work was done). This app's client never makes them.
 */
const isLegacyDataRequest = (request: Request) => new URL(request.url).searchParams.has("_data");

/**
 * The one address of a page, when a GET asks for it under another: Remix also matches `/About` and
 * `/about/`, which search engines and the edge cache would take for pages of their own. A trailing
 * slash goes; a path of fixed words only (about, contact, experts...) is lowercased. A route with
 * a parameter keeps its letters: the profile routes redirect a custom URL's case themselves.
 */
function canonicalPagePath(request: Request): string | null {
  const { pathname } = new URL(request.url);
  if (!["GET", "HEAD"].includes(request.method) || isApiPath(pathname) || pathname.endsWith(".data"))
    return null;
  // Most requests are already in the one spelling: they skip the route match.
  if (!/[A-Z]|.\/$/.test(pathname)) return null;
  const trimmed = pathname.replace(/(.)\/+$/, "$1");
  const id = routeIdOf(trimmed);
  if (id === null || id === "routes/$") return null;
  const canonical = id.includes("$") ? trimmed : trimmed.toLowerCase();
  return canonical === pathname ? null : canonical;
}

/**
 * Remix's own 405 (a method its router does not take, or a route with no action) says which methods
 * would do, as HTTP requires; under /api it answers in the API's `{ "error": ... }` shape.
 */
function withAllow(request: Request, response: Response): Response {
  if (response.status !== 405 || response.headers.has("Allow")) return response;
  const { pathname } = new URL(request.url);
  if (isApiPath(pathname)) {
    const refusal = Response.json(
      { error: "Method not allowed" },
      { status: 405, headers: { "Cache-Control": PRIVATE_CACHE_CONTROL } },
    );
    refusal.headers.set("Allow", allowedMethods(pathname));
    return refusal;
  }
  response.headers.set("Allow", allowedMethods(pathname));
  return response;
}

/** The public pages this isolate served last, kept in memory in front of the edge cache. */
const hotCopies = new HotCopies();

/** The edge cache's settings, the same for every request of this isolate. */
const edgeCache = () => ({
  // The DOM lib's CacheStorage type (tsconfig) hides the Workers-only `default` cache.
  cache: (caches as unknown as { default: Cache }).default,
  buildVersion: build.assets.version,
  hot: hotCopies,
});

/** Remix's answer, from the edge cache when it may; a mutable Response. */
async function serve(request: Request, context: AppLoadContext, ctx: ExecutionContext) {
  const handleRemixRequest =
    context.config.environment === "development" ? handlers.development : handlers.production;
  // Anonymous visitors' public pages may come from the edge cache (workers/edge-cache.ts).
  const served = await serveWithEdgeCache(request, () => handleRemixRequest(request, context), {
    ...edgeCache(),
    waitUntil: (promise) => ctx.waitUntil(promise),
    scriptNonce: () => context.cspNonce,
  });
  const response = new Response(served.body, served);
  // A response that starts or ends a session (signing in hands out the cookie) is as private as one
  // answered to a session.
  const personal = Boolean(readCookie(request, SESSION_COOKIE)) || response.headers.has("Set-Cookie");
  if (personal && isPrivateKind(request, response)) {
    // Nothing answered to a session (pages, their data, JSON, CSV, audio) may be kept by any cache.
    const cacheControl = response.headers.get("Cache-Control") ?? "";
    if (!/\bno-store\b/i.test(cacheControl) || /\bpublic\b/i.test(cacheControl)) {
      response.headers.set("Cache-Control", PRIVATE_CACHE_CONTROL);
    }
  }
  return response;
}

/** Every response leaves through here: request id, security headers, one structured log line. */
function finish(request: Request, response: Response, context: AppLoadContext, started: number) {
  response.headers.set("X-Request-Id", context.requestId);
  // Outside production, say how many D1 round trips the request made (tests and the benchmark).
  if (!context.config.isProduction) response.headers.set("X-D1-Queries", String(context.queries.count));
  // A page rendered now carries context.cspNonce; a page from the edge cache brings its scripts' hashes.
  const secured = applySecurityHeaders(response, {
    nonce: () => context.cspNonce,
    secure: new URL(request.url).protocol === "https:",
  });

  const level = secured.status >= 500 ? "error" : "info";
  if (level === "error" || context.config.logLevel === "info" || context.config.logLevel === "debug") {
    const url = new URL(request.url);
    const line = JSON.stringify({
      level,
      requestId: context.requestId,
      method: request.method,
      path: url.pathname,
      route: routeIdOf(url.pathname),
      status: secured.status,
      durationMs: Date.now() - started,
      d1Queries: context.queries.count,
      edgeCache: secured.headers.get("X-Edge-Cache"),
    });
    if (level === "error") console.error(line);
    else console.log(line);
  }
  return secured;
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
    const { context } = state;
    context.purgePublicPages = (paths) => purgeEdgePages(edgeCache(), new URL(request.url).origin, paths);
    const body = readToTheEnd(request);
    const canonical = canonicalPagePath(request);
    let response: Response;
    try {
      if (isCrossSiteRequest(request)) response = crossSiteRefusal(request);
      else if (isLegacyDataRequest(request)) {
        response = Response.json(
          { error: "Requests with ?_data= are not supported." },
          { status: 400, headers: { "Cache-Control": "no-store" } },
        );
      } else if (isPageMethodRefused(request, new URL(request.url).pathname)) {
        response = new Response("Method Not Allowed", {
          status: 405,
          headers: { Allow: allowedMethods(new URL(request.url).pathname), "Cache-Control": "no-store" },
        });
      } else if (canonical !== null) {
        const { search } = new URL(request.url);
        response = new Response(null, { status: 301, headers: { Location: `${canonical}${search}` } });
      } else if (request.method === "OPTIONS") {
        // No cross-origin caller is served, so an OPTIONS only asks which methods a URL takes.
        response = new Response(null, {
          status: 204,
          headers: { Allow: allowedMethods(new URL(request.url).pathname), "Cache-Control": "no-store" },
        });
      } else response = withAllow(request, await serve(body.request, context, ctx));
    } finally {
      await body.finish();
    }
    const signedIn = Boolean(readCookie(request, SESSION_COOKIE));
    // Carry the D1 bookmark for signed-in users so their next read sees their own writes.
    const bookmark = signedIn ? await requestBookmark(state, env, request.method) : undefined;
    if (bookmark && signedIn && encodeURIComponent(bookmark) !== readCookie(request, BOOKMARK_COOKIE)) {
      response.headers.append(
        "Set-Cookie",
        `${BOOKMARK_COOKIE}=${encodeURIComponent(bookmark)}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=3600`,
      );
    }
    return finish(request, response, context, started);
  },

  async scheduled(controller, env) {
    // Awaited (not waitUntil): the invocation lives until the work is done, and wrangler's
    // /__scheduled test endpoint answers once it is.
    await appEntry.runScheduledTasks(env, controller.scheduledTime, { cron: controller.cron });
  },
} satisfies ExportedHandler<Env>;
