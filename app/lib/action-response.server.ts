import { safeRedirect } from "~/auth/redirect";
import { makeToast, redirectWithToast, type ToastInput } from "~/services/flash.server";

/**
 * What a resource route that changes something answers. A fetcher (or any script) gets JSON with
 * the status that says what happened and a toast to show; a plain form post from a page without
 * JavaScript (a top-level navigation) is sent back to `redirectTo` with the same toast.
 */
export type ActionOutcome = {
  ok: boolean;
  status: number;
  message: string;
  toast?: ToastInput;
  fieldErrors?: Record<string, string[]>;
  [extra: string]: unknown;
};

export const isNavigation = (request: Request) => request.headers.get("Sec-Fetch-Mode") === "navigate";

export async function respondToAction(
  request: Request,
  outcome: ActionOutcome,
  { redirectTo, fallback = "/" }: { redirectTo?: FormDataEntryValue | null; fallback?: string } = {},
): Promise<Response> {
  const toast = outcome.toast ?? {
    title: outcome.ok ? "Done" : "Error",
    description: outcome.message,
    variant: outcome.ok ? ("default" as const) : ("destructive" as const),
  };
  if (isNavigation(request)) return redirectWithToast(safeRedirect(redirectTo ?? null, fallback), toast);
  const { toast: _ignored, ...body } = outcome;
  return Response.json(
    { ...body, toast: makeToast(toast) },
    { status: outcome.status, headers: { "Cache-Control": "private, no-store" } },
  );
}
