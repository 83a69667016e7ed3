import * as z from "~/lib/zod";

export const NEWSLETTER_EMAIL_MESSAGE = "Please enter a valid email address";

/** The footer's newsletter box, shared by browser and server. */
export const NewsletterSchema = z.object({
  email: z
    .string({ error: NEWSLETTER_EMAIL_MESSAGE })
    .trim()
    .max(254, { error: NEWSLETTER_EMAIL_MESSAGE })
    .pipe(z.email({ error: NEWSLETTER_EMAIL_MESSAGE })),
});

export type NewsletterInput = z.infer<typeof NewsletterSchema>;

/** What the newsletter action answers a fetcher with. */
export type NewsletterResult =
  | { ok: true; status: "subscribed" | "already_subscribed"; message: string }
  | { ok: false; error: string };

export const NEWSLETTER_MESSAGES = {
  subscribed: "Thanks for subscribing! Watch your inbox for expert tips and news.",
  already_subscribed: "You're already subscribed to our newsletter.",
} as const;
