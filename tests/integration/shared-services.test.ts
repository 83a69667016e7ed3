import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { emailOutbox, notifications } from "~/db/schema.server";
import { notify } from "~/models/notifications.server";
import { invalidateExpert, readThrough } from "~/services/cache.server";
import { storeImage } from "~/services/media.server";
import { BASE, db, insertAccount } from "./support/accounts";

const waitUntil = (promise: Promise<unknown>) => promise;

describe("notifications", () => {
  it("notifies in the app and queues one e-mail, once per dedupe key", async () => {
    const { userId } = await insertAccount("notified", "password-1");
    const message = {
      userId,
      kind: "question_answered" as const,
      title: "Your question was answered",
      body: "Sarah answered your question.",
      link: "/dashboard/questions",
      dedupeKey: "question-answered:1",
    };
    await notify(db(), message);
    await notify(db(), message);
    const rows = await db().select().from(notifications).where(eq(notifications.userId, userId));
    expect(rows).toHaveLength(1);
    const mails = await db().select().from(emailOutbox).where(eq(emailOutbox.notificationId, rows[0].id));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      toEmail: "notified@example.com",
      subject: "Your question was answered",
      status: "pending",
    });
    expect(mails[0].bodyText).toContain("/dashboard/questions");
  });
});

describe("the KV read-model cache", () => {
  it("loads once, serves the cached copy, and reloads after invalidation", async () => {
    let loads = 0;
    const load = async () => ({ n: ++loads });
    const pending: Promise<unknown>[] = [];
    const track = (promise: Promise<unknown>) => pending.push(promise);
    expect(await readThrough(env.CACHE, "v1:expert:7", load, { waitUntil: track })).toEqual({ n: 1 });
    await Promise.all(pending);
    expect(await readThrough(env.CACHE, "v1:expert:7", load, { waitUntil })).toEqual({ n: 1 });
    await invalidateExpert({ cache: env.CACHE }, { id: 7, customUrls: [] });
    expect(await readThrough(env.CACHE, "v1:expert:7", load, { waitUntil: track })).toEqual({ n: 2 });
  });
});

describe("public images", () => {
  it("serves a stored image with a year-long immutable cache and honours ranges", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
    const { url } = await storeImage(env.MEDIA, png, "image/png");
    const whole = await SELF.fetch(`${BASE}${url}`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("Content-Type")).toBe("image/png");
    expect(whole.headers.get("Cache-Control")).toContain("immutable");
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(png);

    const part = await SELF.fetch(`${BASE}${url}`, { headers: { Range: "bytes=8-" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("Content-Range")).toBe(`bytes 8-11/${png.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3, 4]));
  });

  it("answers 404 for unknown or malformed image names, never reading other keys", async () => {
    await env.MEDIA.put("audio/questions/1/secret.webm", new Uint8Array([1]));
    for (const path of ["/media/images/nope.png", "/media/images/..%2Faudio%2Fquestions%2F1%2Fsecret.webm"]) {
      const response = await SELF.fetch(`${BASE}${path}`);
      expect(response.status, path).toBe(404);
      await response.body?.cancel();
    }
  });
});
