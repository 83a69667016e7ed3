import { data, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getOptionalUser } from "~/auth/session.server";
import type { ShellUser } from "~/components/site-header";
import { siteOrigin } from "~/config.server";
import { getToast } from "./flash.server";

/**
 * The root route's data, for every page: the flash toast, the signed-in person as the header shows
 * them, and the settings the shell needs.
 */
export async function loadShell({ request, context }: LoaderFunctionArgs) {
  const { toast, headers } = await getToast(request);
  const sessionUser = await getOptionalUser(context, request);
  const user: ShellUser | null = sessionUser
    ? {
        id: sessionUser.id,
        role: sessionUser.role,
        hasExpertProfile: sessionUser.expertProfile !== null,
        unreadNotifications: sessionUser.unreadNotifications,
      }
    : null;
  return data(
    {
      toast,
      user,
      // Pages without data of their own build their canonical address from it (~/components/page-seo).
      origin: siteOrigin(context.config, request),
      config: {
        demoMode: context.config.demoMode,
        paymentsTestMode: context.config.paymentsTestMode,
        supportEmail: context.config.supportEmail,
        showErrorDetails: context.config.environment === "development",
      },
    },
    headers ? { headers } : undefined,
  );
}
