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
  | { ok: true; intent: "subscribe" | "unsubscribe"; message: string }
  | { ok: false; intent: "subscribe" | "unsubscribe"; error: string; email?: string };

/** The same answer whether or not the address was on the list: the list is nobody's business. */
export const NEWSLETTER_MESSAGES = {
  subscribe: "Thanks for subscribing! Watch your inbox for expert tips and news.",
  unsubscribe: "That address will get no more newsletters from us.",
} as const;
