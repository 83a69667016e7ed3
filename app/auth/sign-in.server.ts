import { parseWithZod } from "@conform-to/zod/v4";
import { type AppLoadContext, data } from "@remix-run/cloudflare";
import { readForm } from "~/lib/form-data.server";
import { createUser, getSessionUserById, type SessionUser, UsernameTakenError } from "~/models/users.server";
import { LoginSchema, RegisterSchema } from "~/schemas/auth";
import { redirectWithToast } from "~/services/flash.server";
import { createAuthenticator, SignInError } from "./authenticator.server";
import { homePathFor } from "./guards.server";
import { safeRedirect } from "./redirect";
import { endSession, startSession } from "./session.server";

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
  try {
    user = await createAuthenticator(context).authenticate("form", request);
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
  // A new session id at every sign-in: whatever session this browser had before is ended.
  await endSession(context.primaryDb, request);
  const cookie = await startSession(context.primaryDb, user.id, request, context.now());
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
  let userId: number;
  try {
    userId = await createUser(context.primaryDb, { username, email, password, name });
  } catch (error) {
    if (!(error instanceof UsernameTakenError)) throw error;
    return data(
      {
        intent: "register" as const,
        result: submission.reply({ fieldErrors: { username: [error.message] }, hideFields: ["password"] }),
      },
      { status: 409 },
    );
  }
  await endSession(context.primaryDb, request);
  const user = await getSessionUserById(context.primaryDb, userId);
  const cookie = await startSession(context.primaryDb, userId, request, context.now());
  return redirectWithToast(
    safeRedirect(redirectTo, user ? homePathFor(user) : "/dashboard"),
    { title: "Registration successful", description: "Your account is ready." },
    { headers: { "Set-Cookie": cookie } },
  );
}
