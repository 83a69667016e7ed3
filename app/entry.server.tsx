import type {
  ActionFunctionArgs,
  AppLoadContext,
  EntryContext,
  LoaderFunctionArgs,
} from "@remix-run/cloudflare";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToReadableStream } from "react-dom/server";
import { NonceProvider } from "~/components/nonce";
import { parkModuleScripts } from "~/lib/boot-after-paint.server";

// The Cron Trigger's task runner, for workers/app.ts: reached through the server build, the Worker
// carries one copy of the models it shares with the pages instead of a second one of its own.
export { runScheduledTasks } from "~/models/scheduled-tasks.server";

const ABORT_DELAY = 5000;

/** A thrown value that is not an Error, readably ("[object Object]" says nothing). */
function describeThrown(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** One structured line per unexpected error, tied to the request by its id (never shown to users). */
function logError(error: unknown, request: Request, context: AppLoadContext, where: string) {
  console.error(
    JSON.stringify({
      level: "error",
      message: "unhandled error",
      where,
      requestId: context.requestId,
      method: request.method,
      path: new URL(request.url).pathname,
      error: error instanceof Error ? `${error.name}: ${error.message}` : describeThrown(error),
      stack: error instanceof Error ? error.stack : undefined,
    }),
  );
}

/**
 * Remix calls this for errors thrown by loaders and actions (not for thrown Responses, which are
 * expected 4xx answers). Error boundaries show users a generic message outside development.
 */
export function handleError(error: unknown, { request, context }: LoaderFunctionArgs | ActionFunctionArgs) {
  // A client that went away aborts its request; nothing went wrong on our side.
  if (request.signal.aborted) return;
  // Remix's own 4xx answers (a POST to a page without an action is a 405) are not faults.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  logError(error, request, context, "loader/action");
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const controller = new AbortController();
  const timeout = setTimeout(() => controller.abort(), ABORT_DELAY);
  let status = responseStatusCode;
  const nonce = loadContext.cspNonce;
  const body = await renderToReadableStream(
    <NonceProvider nonce={nonce}>
      <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
    </NonceProvider>,
    {
      nonce,
      signal: controller.signal,
      onError(error: unknown) {
        if (!controller.signal.aborted) logError(error, request, loadContext, "render");
        status = 500;
      },
    },
  );
  body.allReady.then(() => clearTimeout(timeout));
  // Every document is sent whole. Pages defer data only for client-side navigations (which Remix's
  // data requests serve, not this), so nothing is left to stream: bots and no-JS clients, whatever
  // they call themselves, get the complete page, and browsers wait for nothing more.
  await body.allReady;
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  // The app's JavaScript loads after the first paint (~/lib/boot-after-paint).
  return new Response(parkModuleScripts(body, remixContext.manifest.entry.imports), {
    headers: responseHeaders,
    status,
  });
}
