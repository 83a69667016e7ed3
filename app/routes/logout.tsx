import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { safeRedirect } from "~/auth/redirect";
import { endSession } from "~/auth/session.server";
import { readForm } from "~/lib/form-data.server";
import { redirectWithToast } from "~/services/flash.server";

/** Sign-out ends the session row, so the old cookie stops working everywhere. */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const cookie = await endSession(context.primaryDb, request);
  return redirectWithToast(
    safeRedirect(form.get("redirectTo"), "/"),
    { title: "Logged out successfully", description: "You have been logged out of your account." },
    { headers: { "Set-Cookie": cookie } },
  );
}

export const loader = () => redirect("/");
