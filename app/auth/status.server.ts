import type { AppLoadContext } from "@remix-run/cloudflare";
import type { SessionUser } from "~/models/users.server";
import { getOptionalUser } from "./session.server";

/** SPEC.md's auth status shape: { authenticated, user } with the expert profile when there is one. */
export async function getAuthStatus(context: AppLoadContext, request: Request) {
  const user = await getOptionalUser(context, request);
  return { authenticated: user !== null, user: user ? publicUser(user) : null };
}

export function publicUser(user: SessionUser) {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    email: user.email,
    role: user.role,
    isAdmin: user.isAdmin,
    profileImage: user.profileImage,
    expertProfile: user.expertProfile,
  };
}
