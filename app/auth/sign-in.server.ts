import { parseWithZod } from "@conform-to/zod/v4";
import { type AppLoadContext, data } from "@remix-run/cloudflare";
import { readForm } from "~/lib/form-data.server";
import { RATE_LIMITED_MESSAGE, withinRateLimit } from "~/models/rate-limits.server";
import { createUser, getSessionUserById, type SessionUser, UsernameTakenError } from "~/models/users.server";
import { LoginSchema, RegisterSchema } from "~/schemas/auth";
import { redirectWithToast } from "~/services/flash.server";
import {
  clientAddress,
  createAuthenticator,
  INVALID_CREDENTIALS,
  SignInError,
  verifyCredentials,
} from "./authenticator.server";
import { homePathFor } from "./guards.server";
import { safeRedirect } from "./redirect";
import { endSession, forgetCachedUser, startSession, startSessionIfPasswordIs } from "./session.server";

type Destination = (user: SessionUser) => string;

/** Signs in from a login form (every login screen posts here), or answers with the form's errors. */
export async function signInWithForm(
  context: AppLoadContext,
  request: Request,
  destination: Destination = homePathFor,
) {
  const form = await readForm(request.clone());
  const submission = parseWithZod(form, { schema: LoginSchema });
  if (submission.status !== "success") {
    return data(
      { intent: "login" as const, result: submission.reply({ hideFields: ["password"] }) },
      { status: 400 },
    );
  }
  let user: SessionUser;
  let cookie: string;
  try {
    const signedIn = await createAuthenticator(context).authenticate("form", request);
    user = signedIn.user;
    cookie = await startFreshSession(context, request, user.id, signedIn.passwordHash);
  } catch (error) {
    if (!(error instanceof SignInError)) throw error;
    return data(
      {
        intent: "login" as const,
        result: submission.reply({ formErrors: [error.message], hideFields: ["password"] }),
      },
      { status: error.status },
    );
  }
  return redirectWithToast(
    safeRedirect(submission.value.redirectTo, destination(user)),
    { title: "Login successful", description: `Welcome back, ${user.name ?? user.username}.` },
    { headers: { "Set-Cookie": cookie } },
  );
}

/** Creates an account and signs it in with the same credentials. */
export async function registerWithForm(context: AppLoadContext, request: Request) {
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: RegisterSchema });
  if (submission.status !== "success") {
    return data(
      { intent: "register" as const, result: submission.reply({ hideFields: ["password"] }) },
      { status: 400 },
    );
  }
  const { username, email, password, name, redirectTo } = submission.value;
  const account = await createAccountAndSignIn(context, request, { username, email, password, name });
  if (!account.ok) {
    return data(
      {
        intent: "register" as const,
        result: submission.reply({ fieldErrors: { username: [account.message] }, hideFields: ["password"] }),
      },
      { status: account.httpStatus },
    );
  }
  const { userId, cookie } = account;
  const user = await getSessionUserById(context.primaryDb, userId);
  return redirectWithToast(
    safeRedirect(redirectTo, user ? homePathFor(user) : "/dashboard"),
    { title: "Registration successful", description: "Your account is ready." },
    { headers: { "Set-Cookie": cookie } },
  );
}

/**
 * Signs in to the account `username` names if the password is its own (checked, and throttled, as a
 * sign-in is) and the e-mail is the account's; null otherwise, telling nothing more than "taken".
 */
async function signInToOwnAccount(
  context: AppLoadContext,
  request: Request,
  { username, email, password }: { username: string; email: string; password: string },
): Promise<{ user: SessionUser; cookie: string } | null> {
  try {
    const { user, passwordHash } = await verifyCredentials(context, request, { username, password });
    if (user.email.toLowerCase() !== email.toLowerCase()) return null;
    return { user, cookie: await startFreshSession(context, request, user.id, passwordHash) };
  } catch (error) {
    if (error instanceof SignInError) return null;
    throw error;
  }
}

export type NewAccountResult =
  | { ok: true; userId: number; cookie: string }
  | { ok: false; field: "username"; message: string; httpStatus: 409 | 429 };

/**
 * Creates a plain user account and signs it in (a new session; any previous one of this browser is
 * ended). The caller puts `cookie` in its response's Set-Cookie. A taken username changes nothing,
 * unless the username, e-mail and password are the account's own: that signs in to it.
 */
export async function createAccountAndSignIn(
  context: AppLoadContext,
  request: Request,
  input: {
    username: string;
    email: string;
    password: string;
    name?: string | null;
    firstName?: string | null;
    lastName?: string | null;
  },
): Promise<NewAccountResult> {
  if (!(await withinRateLimit(context.primaryDb, "signup", clientAddress(request), context.now()))) {
    return { ok: false, field: "username", message: RATE_LIMITED_MESSAGE, httpStatus: 429 };
  }
  let userId: number;
  try {
    userId = await createUser(context.primaryDb, input);
  } catch (error) {
    if (!(error instanceof UsernameTakenError)) throw error;
    // A retry of a sign-up whose answer never arrived finds the account it made: the same username,
    // e-mail and password sign in to it, rather than be told the name is taken.
    const own = await signInToOwnAccount(context, request, input);
    if (own) return { ok: true, userId: own.user.id, cookie: own.cookie };
    return { ok: false, field: "username", message: error.message, httpStatus: 409 };
  }
  const cookie = await startFreshSession(context, request, userId);
  return { ok: true, userId, cookie };
}

/**
 * A new session id at every sign-in: whatever session this browser had before is ended. Returns the
 * Set-Cookie value for the caller's response. `verifiedHash` is the password hash a sign-in checked:
 * if the password changed since, the sign-in fails as a wrong password would (SignInError).
 */
export async function startFreshSession(
  context: AppLoadContext,
  request: Request,
  userId: number,
  verifiedHash?: string,
): Promise<string> {
  await endSession(context.primaryDb, request);
  const cookie =
    verifiedHash === undefined
      ? await startSession(context.primaryDb, userId, request, context.now())
      : await startSessionIfPasswordIs(context.primaryDb, userId, request, context.now(), verifiedHash);
  forgetCachedUser(context);
  if (cookie === null) throw new SignInError(INVALID_CREDENTIALS, 401);
  return cookie;
}
