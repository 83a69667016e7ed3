import type { AppLoadContext } from "@remix-run/cloudflare";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { hashPassword, verifyPassword } from "~/auth/password.server";
import { clientNetwork } from "~/lib/client-network";
import { findCredentialsByUsername, getSessionUserById, type SessionUser } from "~/models/users.server";
import { LoginSchema } from "~/schemas/auth";
import { clearFailures, recordFailure, reserveAttempt, THROTTLED_MESSAGE } from "./throttle.server";

/** One message whether the username exists or not, so sign-in never reveals which accounts exist. */
export const INVALID_CREDENTIALS = "Invalid username or password";

export class SignInError extends Error {
  constructor(
    message: string,
    readonly status: 401 | 429,
  ) {
    super(message);
  }
}

let dummyHash: Promise<string> | undefined;
/** Unknown usernames still pay for one PBKDF2 run, so timing does not reveal them either. */
const hashForUnknownUser = () => {
  dummyHash ??= hashPassword(crypto.randomUUID());
  return dummyHash;
};

/** The client's network, as rate limits and throttles count it (an IPv6 client by its /64). */
export function clientAddress(request: Request): string | null {
  const address = request.headers.get("CF-Connecting-IP");
  return address ? clientNetwork(address) : null;
}

/** A sign-in's checked credentials: the user, and the password hash the password matched. */
export type SignedIn = { user: SessionUser; passwordHash: string };

export async function verifyCredentials(
  context: AppLoadContext,
  request: Request,
  credentials: { username: string; password: string },
): Promise<SignedIn> {
  const db = context.primaryDb;
  const keys = { username: credentials.username, address: clientAddress(request) };
  const throttle = await reserveAttempt(db, keys, context.now());
  if (throttle.locked) throw new SignInError(THROTTLED_MESSAGE, 429);
  if (throttle.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, throttle.delayMs));

  const account = await findCredentialsByUsername(db, credentials.username);
  const valid = await verifyPassword(
    credentials.password,
    account?.passwordHash ?? (await hashForUnknownUser()),
  );
  const user = valid && account ? await getSessionUserById(db, account.id) : null;
  if (!user) {
    await recordFailure(db, keys, context.now());
    throw new SignInError(INVALID_CREDENTIALS, 401);
  }
  await clearFailures(db, keys, context.now());
  return { user, passwordHash: account!.passwordHash };
}

/** remix-auth with the form strategy; the form was validated by the route before it gets here. */
export function createAuthenticator(context: AppLoadContext) {
  return new Authenticator<SignedIn>().use(
    new FormStrategy(async ({ form, request }) => {
      const parsed = LoginSchema.safeParse(Object.fromEntries(form));
      if (!parsed.success) throw new SignInError(INVALID_CREDENTIALS, 401);
      return verifyCredentials(context, request, parsed.data);
    }),
    "form",
  );
}
