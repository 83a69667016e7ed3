import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { closeAccount, updateAccountProfile } from "~/auth/account.server";
import { clearSessionCookie } from "~/auth/session.server";
import { publicUser } from "~/auth/status.server";
import { apiError, methodNotAllowed, parsePathId, readJson, requireApiUser } from "~/lib/api.server";
import { getSessionUserById } from "~/models/users.server";
import { AccountProfileSchema } from "~/schemas/auth";

export const allowedMethods = ["PATCH", "DELETE"] as const;

/** PATCH /api/users/{id} {name, email}; DELETE /api/users/{id}. Only ever the caller's own account. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "PATCH" && request.method !== "DELETE") return methodNotAllowed(...allowedMethods);
  const user = await requireApiUser(context, request);
  const id = parsePathId(params.id);
  if (id === null) return apiError(404, "User not found");
  if (id !== user.id) return apiError(403, "You can only change your own account");

  switch (request.method) {
    case "PATCH": {
      const input = await readJson(request, AccountProfileSchema);
      await updateAccountProfile(context, user, input);
      const updated = await getSessionUserById(context.primaryDb, user.id);
      return Response.json(updated ? publicUser(updated) : null, {
        headers: { "Cache-Control": "private, no-store" },
      });
    }
    case "DELETE": {
      const closed = await closeAccount(context, user);
      if (!closed.ok) return apiError(closed.status ?? 502, closed.message);
      return Response.json({ success: true }, { headers: { "Set-Cookie": clearSessionCookie() } });
    }
  }
}

export const loader = () => methodNotAllowed(...allowedMethods);
