import { type AppLoadContext, data, redirect } from "@remix-run/cloudflare";
import { isAdminUser, isExpertUser, type SessionUser } from "~/models/users.server";
import { redirectWithToast } from "~/services/flash.server";
import { getOptionalUser } from "./session.server";

function returnPath(request: Request) {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

/**
 * To the login page and back. A form sent after the session ended (signed out in another tab) says
 * why it landed there (the settings forms then put back what was sent: useUnsentChanges).
 */
async function loginRedirect(loginPath: string, request: Request) {
  const to = `${loginPath}?${new URLSearchParams({ redirectTo: returnPath(request) })}`;
  if (request.method === "GET" || request.method === "HEAD") return redirect(to);
  return redirectWithToast(to, {
    title: "Your session has ended",
    description: "Please log in again to continue.",
    variant: "destructive",
  });
}

/** Where a person lands after signing in (SPEC.md "Auth"). */
export function homePathFor(user: SessionUser): string {
  if (isExpertUser(user)) return "/expert/dashboard";
  if (isAdminUser(user)) return "/admin/dashboard";
  return "/dashboard";
}

export async function requireUser(
  context: AppLoadContext,
  request: Request,
  { loginPath = "/auth" }: { loginPath?: string } = {},
): Promise<SessionUser> {
  const user = await getOptionalUser(context, request);
  if (!user) throw await loginRedirect(loginPath, request);
  return user;
}

/**
 * Expert pages: signed out goes to /expert/login, signed in without permission to /forbidden.
 * Admins may enter; `expertId` is null for an admin without a profile of their own.
 */
export async function requireExpert(context: AppLoadContext, request: Request) {
  const user = await requireUser(context, request, { loginPath: "/expert/login" });
  if (!isExpertUser(user) && !isAdminUser(user)) throw redirect("/forbidden");
  return { user, expertId: user.expertProfile?.id ?? null };
}

export async function requireAdmin(context: AppLoadContext, request: Request): Promise<SessionUser> {
  const user = await requireUser(context, request, { loginPath: "/admin/login" });
  if (!isAdminUser(user)) throw redirect("/forbidden");
  return user;
}

/**
 * For admin actions: signed out goes to /admin/login, but a signed-in non-admin gets a plain 403
 * (the request is refused, not redirected to a page), and nothing runs.
 */
export async function requireAdminForAction(context: AppLoadContext, request: Request): Promise<SessionUser> {
  const user = await requireUser(context, request, { loginPath: "/admin/login" });
  if (!isAdminUser(user)) throw data({ error: "You don't have permission to do that." }, { status: 403 });
  return user;
}

/** Demo-only pages (quick logins, /test-login, /test-audio) do not exist outside demo mode. */
export function requireDemoMode(context: AppLoadContext) {
  if (!context.config.demoMode) throw new Response("Not Found", { status: 404 });
}
