import { toSingleLine } from "~/lib/single-line";
import * as z from "~/lib/zod";

/**
 * The contact form, shared by browser and server. conform turns empty fields into undefined, so the
 * `error` given to z.string() is the "required" message; `.min(1)` says the same for blank strings.
 */
export const CONTACT_LIMITS = { name: 200, email: 254, subject: 200, message: 5000 } as const;

const requiredText = (label: string, max: number, { singleLine = false } = {}) =>
  z
    .string({ error: `${label} is required` })
    .overwrite((text) => (singleLine ? toSingleLine(text) : text))
    .trim()
    .min(1, { error: `${label} is required` })
    .max(max, { error: `${label} must be at most ${max} characters` });

export const ContactSchema = z.object({
  // One line each: the subject goes into the admin's mailto: reply link, where a line break could
  // start a header of its own (RFC 6068 section 5).
  name: requiredText("Name", CONTACT_LIMITS.name, { singleLine: true }),
  email: z
    .string({ error: "Email is required" })
    .trim()
    .min(1, { error: "Email is required" })
    .max(CONTACT_LIMITS.email, { error: "Please enter a valid email address" })
    .pipe(z.email({ error: "Please enter a valid email address" })),
  subject: requiredText("Subject", CONTACT_LIMITS.subject, { singleLine: true }),
  message: requiredText("Message", CONTACT_LIMITS.message),
});

export type ContactInput = z.infer<typeof ContactSchema>;

export const CONTACT_SENT_TOAST = {
  title: "Message Sent",
  description: "Thank you for reaching out. We'll respond to your inquiry soon.",
} as const;
