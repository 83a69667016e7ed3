import { createCookie, redirect } from "@remix-run/cloudflare";
import * as z from "zod";
import type { ToastMessage } from "~/components/ui/toast";

/**
 * Flash toasts that survive a redirect. The cookie carries only text shown back to the same browser,
 * so it is not signed; whatever comes back is validated and anything malformed is ignored.
 */
export const TOAST_COOKIE = "__toast";

const toastCookie = createCookie(TOAST_COOKIE, {
  httpOnly: true,
  sameSite: "lax",
  secure: true,
  path: "/",
  // A flash is read on the very next page; never let a stale one linger.
  maxAge: 60,
});

const ToastSchema = z.object({
  id: z.string().max(100),
  title: z.string().min(1).max(200),
  description: z.string().max(1000).optional(),
  variant: z.enum(["default", "destructive"]).optional(),
  duration: z.number().int().positive().max(60_000).optional(),
});

export type Toast = z.infer<typeof ToastSchema> & ToastMessage;
export type ToastInput = Omit<ToastMessage, "id">;

/** Gives a toast an id so the page shows it exactly once (use for toasts in action data too). */
export function makeToast(input: ToastInput): Toast {
  return { ...input, id: crypto.randomUUID() };
}

/** The Set-Cookie header that stores a flash toast for the next page. */
export async function createToastHeaders(input: ToastInput): Promise<Headers> {
  return new Headers({ "Set-Cookie": await toastCookie.serialize(makeToast(input)) });
}

/** Redirects and shows `toast` on the page it lands on. Extra headers in `init` are kept. */
export async function redirectWithToast(url: string, input: ToastInput, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", await toastCookie.serialize(makeToast(input)));
  return redirect(url, { ...init, headers });
}

/**
 * Reads (and consumes) the flash toast. `headers` clears the cookie and must go on the response;
 * it is null when there was no cookie.
 */
export async function getToast(request: Request): Promise<{ toast: Toast | null; headers: Headers | null }> {
  const cookieHeader = request.headers.get("Cookie");
  if (!cookieHeader?.includes(`${TOAST_COOKIE}=`)) return { toast: null, headers: null };
  let value: unknown = null;
  try {
    value = await toastCookie.parse(cookieHeader);
  } catch {
    value = null;
  }
  const parsed = ToastSchema.safeParse(value);
  const headers = new Headers({ "Set-Cookie": await toastCookie.serialize("", { maxAge: 0 }) });
  return { toast: parsed.success ? parsed.data : null, headers };
}
