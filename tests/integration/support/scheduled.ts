/**
 * Helpers for the scheduled-handler tests (inside workerd): run the Cron Trigger's handler at a
 * chosen instant, read what it recorded, and a local fake of the e-mail provider's HTTP API.
 */
import { env } from "cloudflare:test";
import { desc, eq } from "drizzle-orm";
import { cronRuns, emailOutbox, notifications } from "~/db/schema.server";
import { runScheduledTasks, type ScheduledOptions } from "~/models/scheduled-tasks.server";
import type { FetchLike } from "~/services/email.server";
import { db } from "./accounts";

/** Runs the scheduled handler as the Cron Trigger would at `at`, with extra Worker variables. */
export function runAt(
  at: Date | number,
  { vars = {}, ...options }: ScheduledOptions & { vars?: Record<string, string> } = {},
) {
  return runScheduledTasks({ ...env, ...vars }, typeof at === "number" ? at : at.getTime(), options);
}

export const lastRun = async () =>
  (await db().select().from(cronRuns).orderBy(desc(cronRuns.id)).limit(1))[0];

export const kindsOf = async (userId: number) =>
  (await db().select().from(notifications).where(eq(notifications.userId, userId))).map((row) => row.kind);

export const outboxTo = (email: string) =>
  db().select().from(emailOutbox).where(eq(emailOutbox.toEmail, email));

export type SentEmail = { url: string; headers: Record<string, string>; body: Record<string, unknown> };

export const EMAIL_VARS = {
  EMAIL_API_KEY: "re_test_fakeKeyForTheIntegrationTests",
  EMAIL_FROM: "Expert Answers <hello@expertanswers.example>",
  EMAIL_API_BASE: "http://email.fake",
  APP_URL: "https://expertanswers.example",
};

/**
 * A fake of Resend's POST /emails: records each request and answers as Resend does ({ id } on 200,
 * { statusCode, name, message } on an error). `failNext(n, status)` makes the next n requests fail.
 */
export function fakeEmailProvider() {
  const sent: SentEmail[] = [];
  let failures: { left: number; status: number } = { left: 0, status: 500 };
  const fetch: FetchLike = async (url, init) => {
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const body = JSON.parse(String(init.body)) as Record<string, unknown>;
    if (failures.left > 0) {
      failures.left -= 1;
      return Response.json(
        { statusCode: failures.status, name: "application_error", message: "Something went wrong." },
        { status: failures.status },
      );
    }
    sent.push({ url, headers, body });
    return Response.json({ id: `email_${sent.length}` });
  };
  return {
    fetch,
    sent,
    failNext(times: number, status = 500) {
      failures = { left: times, status };
    },
  };
}
