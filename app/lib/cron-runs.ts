/** How the admin view names the scheduled tasks' counters and the rows a failure concerns. */

export const SUMMARY_LABELS: Record<string, string> = {
  remindersSent: "Reminders sent",
  questionsExpired: "Questions expired",
  questionPaymentsSettled: "Question payments confirmed",
  paymentsRetried: "Payments retried",
  meetingLinksSent: "Meeting links sent",
  sessionsCompleted: "Sessions completed",
  holdsFreed: "Holds freed",
  holdsConfirmed: "Late payments confirmed",
  refunds: "Refunds",
  subscriptionsLapsed: "Subscriptions lapsed",
  emailsSent: "E-mails sent",
  emailsLogged: "E-mails logged (no provider)",
  emailsRetrying: "E-mails to retry",
  emailsFailed: "E-mails given up",
  recordsPruned: "Old records removed",
};

const SUBJECTS: Record<string, string> = {
  remind: "question",
  expire: "question",
  "settle-payments": "question",
  "retry-cancel": "question",
  "retry-capture": "question",
  "meeting-links": "booking",
  "free-holds": "booking",
  email: "e-mail",
};

export type RunFailure = { task: string; id?: number; message: string };

/** "question 12", "booking 3", or the task's name when the failure is not about one row. */
export function failureSubject(failure: RunFailure) {
  const subject = SUBJECTS[failure.task] ?? failure.task;
  return failure.id === undefined ? failure.task : `${subject} ${failure.id}`;
}

/** Parses a JSON column written by the scheduled handler; anything unreadable is empty. */
export function parseJsonColumn<T>(text: string | null, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** "2026-11-22 13:35:12 UTC": the same on the server and in any browser. */
export function formatRunTime(epochMs: number) {
  return `${new Date(epochMs).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}
