import { isRouteErrorResponse, Link, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { NotFound } from "~/components/not-found";
import { StatusPage } from "~/components/status-page";
import { buttonClass } from "~/components/ui/button";
import type { loader as rootLoader } from "~/root";

type Copy = { title: string; text: string };

const STATUS_COPY: Record<number, Copy> = {
  400: {
    title: "We couldn't process that request",
    text: "Something in the request was missing or malformed. Please go back and try again.",
  },
  401: { title: "Please sign in", text: "You need to be signed in to see this page." },
  403: { title: "Access Denied", text: "You don't have permission to access this page" },
  405: { title: "That action isn't available", text: "This page doesn't accept that kind of request." },
  413: { title: "That was too large", text: "The upload or form was bigger than we accept." },
  429: {
    title: "Too many requests",
    text: "You've made a lot of requests in a short time. Please wait a moment and try again.",
  },
  503: {
    title: "We'll be right back",
    text: "The service is briefly unavailable. Please try again in a few minutes.",
  },
};

const FALLBACK: Copy = {
  title: "Something went wrong",
  text: "An unexpected error occurred on our side. Please try again in a moment; if it keeps happening, contact support.",
};

/** The short explanation a 4xx Response carried: its text, or an `error`/`message` field. */
function messageOf(body: unknown): string | null {
  const text =
    typeof body === "string"
      ? body
      : body && typeof body === "object"
        ? ((body as { error?: unknown; message?: unknown }).error ?? (body as { message?: unknown }).message)
        : null;
  return typeof text === "string" && text.length > 0 && text.length < 300 ? text : null;
}

/** Title text for a route error, for `meta` functions. */
export function errorTitle(error: unknown): string {
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) return "404 Page Not Found";
    return STATUS_COPY[error.status]?.title ?? FALLBACK.title;
  }
  return FALLBACK.title;
}

/**
 * One error screen for every route: 404 renders the not-found screen, known statuses a friendly
 * message, anything else a generic one. Details only when the server runs in development.
 */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const showDetails = root?.config.showErrorDetails ?? false;

  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;

  const status = isRouteErrorResponse(error) ? error.status : 500;
  const copy = STATUS_COPY[status] ?? FALLBACK;
  const detail = isRouteErrorResponse(error) && status < 500 ? messageOf(error.data) : null;

  return (
    <StatusPage
      icon="!"
      tone="danger"
      title={copy.title}
      actions={
        <>
          <Link to="/" className={buttonClass()}>
            Return to Home
          </Link>
          {status === 401 ? (
            <Link to="/auth" className={buttonClass({ variant: "secondary" })}>
              Login
            </Link>
          ) : (
            <Link to="/contact" className={buttonClass({ variant: "secondary" })}>
              Contact Support
            </Link>
          )}
        </>
      }
    >
      <p className="muted">{copy.text}</p>
      {detail && detail !== copy.text ? <p>{detail}</p> : null}
      {showDetails && error instanceof Error ? (
        <pre className="error-stack">{error.stack ?? error.message}</pre>
      ) : null}
    </StatusPage>
  );
}
