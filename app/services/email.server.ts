/**
 * Outgoing e-mail through Resend's HTTP API (https://resend.com/docs/api-reference/emails/send-email):
 * `POST {EMAIL_API_BASE}/emails` with `Authorization: Bearer EMAIL_API_KEY` and a JSON body
 * `{ from, to, subject, html, text }`. Without a key nothing is sent (the outbox only logs).
 *
 * The HTML is built here from plain text: every piece of text is escaped, so a name or question that
 * contains markup arrives as text.
 */
import type { AppConfig } from "~/config.server";

export const DEFAULT_EMAIL_API_BASE = "https://api.resend.com";
export const DEFAULT_EMAIL_FROM = "Expert Answers <notifications@expertanswers.example>";

export type EmailMessage = { to: string; subject: string; text: string; html: string };

export type EmailSendResult =
  | { ok: true; providerMessageId: string | null }
  | { ok: false; error: string; retryable: boolean };

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text made safe to place in HTML (element content or a quoted attribute). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]);
}

/** A relative app path ("/dashboard/questions") made absolute for an e-mail, which has no page to be relative to. */
function absolute(line: string, appUrl: string) {
  return /^\/(?!\/)[^\s]*$/.test(line) ? new URL(line, appUrl).toString() : null;
}

/**
 * The e-mail for one notification: the subject as heading, each paragraph of the text, and a lone
 * app path as a link to the site. Everything is escaped; the plain-text part carries the same words.
 */
export function renderEmail(
  input: { to: string; subject: string; bodyText: string },
  appUrl: string,
): EmailMessage {
  const paragraphs = input.bodyText
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
  const textParts: string[] = [];
  const htmlParts: string[] = [];
  for (const paragraph of paragraphs) {
    const url = absolute(paragraph, appUrl);
    if (url) {
      textParts.push(url);
      htmlParts.push(`<p><a href="${escapeHtml(url)}">Open Expert Answers</a></p>`);
    } else {
      textParts.push(paragraph);
      htmlParts.push(`<p>${escapeHtml(paragraph).replace(/\n/g, "<br>")}</p>`);
    }
  }
  const html = [
    "<!doctype html>",
    '<html lang="en"><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1f2937">',
    `<h1 style="font-size:20px">${escapeHtml(input.subject)}</h1>`,
    ...htmlParts,
    '<p style="color:#6b7280;font-size:12px">You receive this e-mail because of your Expert Answers account.</p>',
    "</body></html>",
  ].join("\n");
  return { to: input.to, subject: input.subject, text: textParts.join("\n\n"), html };
}

/** Whether e-mail is really sent (a provider key is configured). */
export function emailConfigured(config: AppConfig["email"]) {
  return Boolean(config.apiKey);
}

/**
 * Sends one message. `idempotencyKey` makes a retry after a lost response harmless (Resend keeps keys
 * for 24 hours). A 429 or 5xx is worth retrying; the caller retries every failure with backoff anyway.
 */
export async function sendEmail(
  config: AppConfig["email"],
  message: EmailMessage,
  { fetch, idempotencyKey }: { fetch: FetchLike; idempotencyKey: string },
): Promise<EmailSendResult> {
  if (!config.apiKey) return { ok: false, error: "No e-mail provider key is configured.", retryable: false };
  const base = (config.apiBase ?? DEFAULT_EMAIL_API_BASE).replace(/\/+$/, "");
  let response: Response;
  try {
    response = await fetch(`${base}/emails`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${config.apiKey}`,
        "Content-Type": "application/json",
        "Idempotency-Key": idempotencyKey,
      },
      body: JSON.stringify({
        from: config.from ?? DEFAULT_EMAIL_FROM,
        to: [message.to],
        subject: message.subject,
        html: message.html,
        text: message.text,
      }),
    });
  } catch (error) {
    return {
      ok: false,
      error: `The e-mail provider could not be reached: ${String(error)}`,
      retryable: true,
    };
  }
  const body = (await response.json().catch(() => null)) as { id?: string; message?: string } | null;
  if (response.ok) return { ok: true, providerMessageId: body?.id ?? null };
  return {
    ok: false,
    error: `The e-mail provider answered ${response.status}: ${body?.message ?? response.statusText}`,
    retryable: response.status === 429 || response.status >= 500,
  };
}
