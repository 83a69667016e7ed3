import { parseConfig } from "~/config.server";
import { createDatabase } from "~/db/client.server";
import { cronRuns } from "~/db/schema.server";
import type { Env } from "./env";

/**
 * The Cron Trigger (every 5 minutes). Each task is idempotent: every change is a conditional
 * UPDATE on the current state, so overlapping runs find nothing left to do. The tasks themselves
 * (deadlines, reminders, meeting links, holds, lapses) arrive with the issues that own them.
 */
export async function runScheduledTasks(env: Env, scheduledTime: number) {
  parseConfig(env);
  const db = createDatabase(env.DB);
  const startedAt = new Date(scheduledTime);
  const summary: Record<string, number> = {};
  const failures: { task: string; id?: number; message: string }[] = [];
  await db.insert(cronRuns).values({
    cron: "*/5 * * * *",
    startedAt,
    finishedAt: new Date(),
    summary: JSON.stringify(summary),
    failures: JSON.stringify(failures),
  });
}
