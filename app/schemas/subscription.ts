import * as z from "~/lib/zod";
import { NewPasswordSchema, UsernameSchema } from "./auth";

/**
 * The subscription (SPEC.md "Subscribe", sections 4, 5 and 9): $20 a month for one new question a
 * day. Shared by browser and server, with SPEC.md's exact messages.
 */

/** DESIGN.md: a subscription costs 2000 cents a month. The Stripe price must say the same. */
export const SUBSCRIPTION_PRICE_CENTS = 2000;
/** Test mode (no Stripe key) activates a subscription for this long, without payment. */
export const TEST_MODE_SUBSCRIPTION_DAYS = 30;

export const SUBSCRIPTION_MESSAGES = {
  initFailed: "Failed to initialize subscription. Please try again.",
  generic: "An error occurred. Please try again.",
  alreadyActive:
    "You already have an active subscription. You can manage it from your dashboard, and resume it there if it is set to end.",
  needsJavaScript: "Please enable JavaScript to pay for your subscription.",
  notActive: "You don't have an active subscription.",
  alreadyCanceling: "Your subscription is already set to end at the end of this period.",
  notCanceling: "Your subscription is not set to end, so there is nothing to resume.",
  provider: "We couldn't reach our payment provider. Please try again.",
  notPaid: "Your payment has not been completed yet.",
  sessionEnded:
    "Your session has ended, so nothing was charged. Please sign in again to add the subscription to your account.",
} as const;

/** SPEC.md section 5 gives the subscription's e-mail rule ("email valid") without a message. */
export const SUBSCRIPTION_EMAIL_MESSAGE = "Please enter a valid email address";

/** The account fields of /subscribe, for a visitor who is not signed in (SPEC.md: {email, username, password}). */
export const SubscribeAccountSchema = z.object({
  email: z
    .string({ error: SUBSCRIPTION_EMAIL_MESSAGE })
    .trim()
    .max(254, { error: SUBSCRIPTION_EMAIL_MESSAGE })
    .pipe(z.email({ error: SUBSCRIPTION_EMAIL_MESSAGE })),
  username: UsernameSchema,
  password: NewPasswordSchema,
});

/** A signed-in visitor subscribes without account fields (anything sent, such as `amount`, is ignored). */
export const SubscribeSignedInSchema = z.object({});

/** What a signed-in /subscribe sends, so the server can tell its session has since ended. */
export const SIGNED_IN_FIELD = "asSignedIn";

export const subscribeSchemaFor = (signedIn: boolean) =>
  signedIn ? SubscribeSignedInSchema : SubscribeAccountSchema;

/** The dashboard's subscription buttons. */
export const SubscriptionActionSchema = z.object({
  intent: z.enum(["cancel-subscription", "resume-subscription"], { error: "Unknown action." }),
});

export type SubscribeAccountInput = z.infer<typeof SubscribeAccountSchema>;

/** What the screens say about each status (the database's subscription_status). */
export const SUBSCRIPTION_STATUS_LABELS = {
  incomplete: "Awaiting payment",
  active: "Active",
  past_due: "Payment failed",
  canceled: "Canceled",
  unpaid: "Unpaid",
  lapsed: "Ended",
} as const;

export type SubscriptionStatus = keyof typeof SUBSCRIPTION_STATUS_LABELS;

/** A renewal the card refused: Stripe retries it until the subscription is cancelled, which ends it at once. */
export const UNPAID_RENEWAL_STATUSES: SubscriptionStatus[] = ["past_due", "unpaid"];
