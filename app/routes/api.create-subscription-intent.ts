import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { getOptionalUser } from "~/auth/session.server";
import { createAccountAndSignIn } from "~/auth/sign-in.server";
import { apiError, methodNotAllowed, parseOrThrow, readJsonObject } from "~/lib/api.server";
import { startSubscription, subscriptionDeps } from "~/models/subscriptions.server";
import {
  SIGNED_IN_FIELD,
  SUBSCRIPTION_MESSAGES,
  SubscribeAccountSchema,
  SubscribeSignedInSchema,
} from "~/schemas/subscription";

export const allowedMethods = ["POST"] as const;

const NO_STORE = "private, no-store";

/**
 * POST /api/create-subscription-intent (SPEC.md section 7), sent by /subscribe when the visitor
 * presses Subscribe Now and the card details are complete. Signed out, the body carries the account
 * fields {email, username, password}: the account is created and signed in first (a taken username
 * changes nothing, and no Stripe customer is made). Then the subscription starts: the answer is the
 * first invoice's client secret for the browser to confirm, or in test mode an active subscription.
 * Any `amount` sent is ignored: the price is the server's.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(...allowedMethods);
  const user = await getOptionalUser(context, request);
  const body = await readJsonObject(request);
  let userId: number;
  let cookie: string | null = null;
  if (user) {
    parseOrThrow(SubscribeSignedInSchema, body);
    userId = user.id;
  } else if (body[SIGNED_IN_FIELD] === true) {
    // Sent from a signed-in screen whose session has since ended: never a new account by surprise.
    return apiError(401, SUBSCRIPTION_MESSAGES.sessionEnded);
  } else {
    const input = parseOrThrow(SubscribeAccountSchema, body);
    const account = await createAccountAndSignIn(context, request, input);
    if (!account.ok) {
      return apiError(account.httpStatus, account.message, {
        fieldErrors: { [account.field]: [account.message] },
      });
    }
    userId = account.userId;
    cookie = account.cookie;
  }

  const result = await startSubscription(subscriptionDeps(context), userId);
  const headers = new Headers({ "Cache-Control": NO_STORE });
  if (cookie) headers.append("Set-Cookie", cookie);
  // `signedIn` tells the screen the account exists now, so a retry needs no account fields.
  if (result.status === "refused") {
    return Response.json({ error: result.message, signedIn: true }, { status: result.httpStatus, headers });
  }
  if (result.status === "active") {
    return Response.json(
      { status: "active", signedIn: true, redirectTo: "/thank-you?subscription=true" },
      { status: 201, headers },
    );
  }
  return Response.json(
    {
      status: "requires_payment",
      signedIn: true,
      subscriptionId: result.subscriptionId,
      clientSecret: result.clientSecret,
    },
    { headers },
  );
}

export const loader = () => methodNotAllowed(...allowedMethods);
