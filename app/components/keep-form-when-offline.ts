import type { ClientActionFunctionArgs } from "@remix-run/react";
import { toast } from "~/components/ui/toast";
import { UNREACHABLE_STATUS } from "~/lib/revalidation";

// The toast list is fetched on a page's first toast; offline that fetch fails and takes the page down
// with it. A screen with these forms fetches it up front, while it is still online.
if (typeof document !== "undefined") void import("./ui/toast-list.client");

const SERVER_UNREACHABLE_TITLE = "No connection";
export const SERVER_UNREACHABLE_MESSAGE =
  "We couldn't reach the server. Check your connection and try again: what you entered is still here.";

// The toast that says the server was not reached, and what it says.
let unreachable: { dismiss(): void; description: string } | undefined;

function sayUnreachable(description: string) {
  unreachable = {
    ...toast({ title: SERVER_UNREACHABLE_TITLE, description, variant: "destructive" }),
    description,
  };
}

/** Says that a submission did not reach the server, and that the form still holds what was entered. */
export function sayServerUnreachable() {
  sayUnreachable(SERVER_UNREACHABLE_MESSAGE);
}

/** Stops a form's submission while the browser knows it is offline, and says so; true if it did. */
export function stopWhenOffline(event: { preventDefault(): void }): boolean {
  if (navigator.onLine) return false;
  event.preventDefault();
  sayServerUnreachable();
  return true;
}

/**
 * A route's clientAction for forms people type into: a submission that never reaches the server
 * (offline, a dropped connection) says so and leaves the form as it was, instead of replacing the
 * page with the error screen and losing what was typed.
 *
 * The answer can be lost after the server did the work. Where sending again would mislead, the route
 * says what to say instead, for what was sent, in `outcomeUnknown`.
 *
 * It answers null with a 503: the form sees no result (so keeps its fields and shows no stale
 * message), and the error status stops Remix reloading the page's data, which would fail the same way
 * (after a fetcher's submission, only in routes that export revalidateUnlessUnreachable).
 */
export async function keepFormWhenOffline(
  { request, serverAction }: ClientActionFunctionArgs,
  { outcomeUnknown }: { outcomeUnknown?: (sent: FormData) => string | undefined } = {},
) {
  // Only such a route reads what was sent. Offline before sending, nothing reached the server.
  // (A form's body is copied by reference in Chromium, pictures included; other browsers may buffer it.)
  const sent = outcomeUnknown && navigator.onLine ? request.clone() : null;
  // A send that got through takes down the toast that is out of date now: one saying the server was
  // not reached, or one saying we can't tell whether this very send, sent before, was received.
  const gotThrough = async () => {
    const said = unreachable?.description;
    if (
      said === SERVER_UNREACHABLE_MESSAGE ||
      (said && sent && outcomeUnknown?.(await sent.formData()) === said)
    )
      unreachable?.dismiss();
  };
  try {
    const answer = await serverAction();
    await gotThrough();
    return answer;
  } catch (error) {
    // fetch() rejects with a TypeError when the request never completes; anything else (a redirect, a
    // server error) got through, and keeps Remix's usual handling.
    if (!(error instanceof TypeError)) {
      await gotThrough();
      throw error;
    }
    const unknown = sent ? outcomeUnknown?.(await sent.formData()) : undefined;
    sayUnreachable(unknown ?? SERVER_UNREACHABLE_MESSAGE);
    return new Response("null", {
      status: UNREACHABLE_STATUS,
      headers: { "Content-Type": "application/json" },
    });
  }
}
