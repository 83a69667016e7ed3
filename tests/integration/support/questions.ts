/**
 * Helpers for the question tests (inside workerd): people, questions in a given state, and the
 * requests the screens send.
 */
import { SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { experts, notifications, payments, questions, users } from "~/db/schema.server";
import { webmFile } from "../../audio-files";
import { insertQuestion } from "../../factories";
import { BASE, db, insertAccount, postRaw, signIn } from "./accounts";

let counter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++counter}`;

export type Person = { userId: number; expertId: number | null; cookie: string; username: string };

/** A signed-in client. */
export async function newClient(prefix = "client"): Promise<Person> {
  const username = unique(prefix);
  const { userId } = await insertAccount(username, "client-pass-1");
  return { userId, expertId: null, cookie: await signIn(username, "client-pass-1"), username };
}

/** A signed-in expert with the given question rate (cents). */
export async function newExpert(
  prefix = "expert",
  questionRate = 1500,
): Promise<Person & { expertId: number }> {
  const username = unique(prefix);
  const { userId, expertId } = await insertAccount(username, "expert-pass-1", { role: "expert" });
  await db().update(experts).set({ questionRate }).where(eq(experts.id, expertId!));
  return { userId, expertId: expertId!, cookie: await signIn(username, "expert-pass-1"), username };
}

/** A signed-in admin. */
export async function newAdmin(): Promise<Person> {
  const username = unique("admin");
  const { userId } = await insertAccount(username, "admin-pass-1", { role: "admin" });
  return { userId, expertId: null, cookie: await signIn(username, "admin-pass-1"), username };
}

/** Gives a client an active subscription (as the subscriptions issue's webhooks will). */
export async function makeSubscriber(userId: number, { endsInDays = 30 } = {}) {
  await db()
    .update(users)
    .set({
      subscriptionStatus: "active",
      subscriptionEndDate: new Date(Date.now() + endsInDays * 86_400_000),
    })
    .where(eq(users.id, userId));
}

/** A question already paid (test mode) and waiting for `expertId`, asked by `userId`. */
export function pendingQuestion(
  userId: number,
  expertId: number,
  overrides: Parameters<typeof insertQuestion>[1] = {},
) {
  return insertQuestion(db(), {
    userId,
    expertId,
    name: "Test Asker",
    email: "asker@example.com",
    ...overrides,
  });
}

export const getQuestion = async (id: number) =>
  (await db().select().from(questions).where(eq(questions.id, id)))[0];

export const getLedger = async (questionId: number) =>
  (await db().select().from(payments).where(eq(payments.questionId, questionId)))[0];

export const notificationsOf = (userId: number) =>
  db().select().from(notifications).where(eq(notifications.userId, userId));

/** A same-origin JSON POST, as the Ask screen's script sends it. */
export function postJson(path: string, body: unknown, cookie = "") {
  return postRaw(path, JSON.stringify(body), { cookie, contentType: "application/json" });
}

/** A multipart POST (the answer form with an audio file). */
export function postMultipart(path: string, form: FormData, cookie = "") {
  return postRaw(path, form, { cookie });
}

/** GET with a cookie and extra headers (Range). */
export function getWith(path: string, cookie: string, headers: Record<string, string> = {}) {
  return SELF.fetch(`${BASE}${path}`, {
    redirect: "manual",
    headers: { ...headers, ...(cookie ? { Cookie: cookie } : {}) },
  });
}

/** The flash toast a response sets (the cookie is base64-encoded JSON). */
export function toastFrom(
  response: Response,
): { title: string; description?: string; variant?: string } | null {
  for (const header of response.headers.getSetCookie()) {
    const [pair] = header.split(";");
    if (!pair.startsWith("__toast=")) continue;
    const value = decodeURIComponent(pair.slice("__toast=".length));
    try {
      return JSON.parse(decodeURIComponent(escape(atob(value))));
    } catch {
      return null;
    }
  }
  return null;
}

/** A small WebM recording that holds together (the upload check walks it), as MediaRecorder makes. */
export const WEBM_BYTES: Uint8Array<ArrayBuffer> = webmFile();
/** A PNG's first bytes: an image, whatever it is called. */
export const PNG_BYTES: Uint8Array<ArrayBuffer> = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
]);
