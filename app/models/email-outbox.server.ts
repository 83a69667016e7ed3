/**
 * Delivers the e-mail outbox (rows queued by notificationStatements) through the provider, from the
 * scheduled handler. Each row is claimed by a conditional UPDATE before it is sent, so two runs at
 * once never send the same e-mail; the provider also gets an idempotency key per row. A refusal is
 * retried with exponential backoff and recorded; after MAX_EMAIL_ATTEMPTS the row is `failed`.
 * Without a provider key the rows are only logged (status `logged`).
 */
import { and, asc, eq, isNull, lte, or } from "drizzle-orm";
import type { AppConfig } from "~/config.server";
import type { Database } from "~/db/client.server";
import { emailOutbox } from "~/db/schema.server";
import { emailConfigured, type FetchLike, renderEmail, sendEmail } from "~/services/email.server";

export const MAX_EMAIL_ATTEMPTS = 6;
/** First retry after 5 minutes (one cron period), then 10, 20, 40, 80. */
export const EMAIL_BACKOFF_BASE_MS = 5 * 60 * 1000;
/** A claimed row is left alone this long by other runs (longer than any send takes). */
const CLAIM_MS = 10 * 60 * 1000;

export type OutboxDeps = {
  db: Database;
  now: Date;
  config: Pick<AppConfig, "email" | "appUrl">;
  fetch: FetchLike;
};

export type OutboxReport = {
  sent: number;
  logged: number;
  retrying: number;
  failed: number;
  failures: { task: string; id: number; message: string }[];
};

export function emailBackoffMs(attempts: number) {
  return EMAIL_BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1);
}

export async function deliverOutbox(deps: OutboxDeps, { limit = 25 } = {}): Promise<OutboxReport> {
  const { db, now } = deps;
  const report: OutboxReport = { sent: 0, logged: 0, retrying: 0, failed: 0, failures: [] };
  const due = and(
    eq(emailOutbox.status, "pending"),
    or(isNull(emailOutbox.nextAttemptAt), lte(emailOutbox.nextAttemptAt, now)),
  );
  const rows = await db
    .select()
    .from(emailOutbox)
    .where(due)
    .orderBy(asc(emailOutbox.createdAt), asc(emailOutbox.id))
    .limit(limit);
  const live = emailConfigured(deps.config.email);
  for (const row of rows) {
    // Claim the row: only one run gets it.
    const [claimed] = await db
      .update(emailOutbox)
      .set({ nextAttemptAt: new Date(now.getTime() + CLAIM_MS) })
      .where(and(eq(emailOutbox.id, row.id), due))
      .returning({ id: emailOutbox.id });
    if (!claimed) continue;

    if (!live) {
      console.log(
        JSON.stringify({
          level: "info",
          message: "e-mail (not sent: no provider key)",
          id: row.id,
          to: row.toEmail,
          subject: row.subject,
        }),
      );
      await db
        .update(emailOutbox)
        .set({ status: "logged", nextAttemptAt: null })
        .where(eq(emailOutbox.id, row.id));
      report.logged += 1;
      continue;
    }

    const attempts = row.attempts + 1;
    const message = renderEmail(
      { to: row.toEmail, subject: row.subject, bodyText: row.bodyText },
      deps.config.appUrl,
    );
    const result = await sendEmail(deps.config.email, message, {
      fetch: deps.fetch,
      idempotencyKey: `email-outbox-${row.id}`,
    }).catch((error) => ({ ok: false as const, error: String(error), retryable: true }));
    if (result.ok) {
      await db
        .update(emailOutbox)
        .set({
          status: "sent",
          attempts,
          sentAt: now,
          nextAttemptAt: null,
          lastError: null,
          providerMessageId: result.providerMessageId,
        })
        .where(eq(emailOutbox.id, row.id));
      report.sent += 1;
      continue;
    }
    const giveUp = attempts >= MAX_EMAIL_ATTEMPTS;
    await db
      .update(emailOutbox)
      .set({
        status: giveUp ? "failed" : "pending",
        attempts,
        lastError: result.error,
        nextAttemptAt: giveUp ? null : new Date(now.getTime() + emailBackoffMs(attempts)),
      })
      .where(eq(emailOutbox.id, row.id));
    if (giveUp) report.failed += 1;
    else report.retrying += 1;
    report.failures.push({ task: "email", id: row.id, message: result.error });
    console.error(
      JSON.stringify({
        level: "error",
        message: "e-mail not sent",
        id: row.id,
        attempts,
        error: result.error,
      }),
    );
  }
  return report;
}
