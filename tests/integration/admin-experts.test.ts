import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { contactMessages, experts, notifications } from "~/db/schema.server";
import { CONTACT_PAGE_SIZE } from "~/models/contact.server";
import { cacheKeys } from "~/services/cache.server";
import { insertExpert } from "../factories";
import { db, get, insertAccount, postForm, postRaw, signIn } from "./support/accounts";

let adminCookie: string;
beforeAll(async () => {
  await insertAccount("site-admin", "admin-pass-1", { role: "admin" });
  adminCookie = await signIn("site-admin", "admin-pass-1");
});

/** An admin's action as the page's fetcher sends it (single fetch): its status and encoded answer. */
async function adminAction(path: string, fields: Record<string, string>) {
  const response = await postForm(`${path}.data`, fields, { cookie: adminCookie });
  return { status: response.status, body: await response.text() };
}

const expertRow = async (id: number) => (await db().select().from(experts).where(eq(experts.id, id)))[0];

describe("admin: experts (verify and feature)", () => {
  it("lists experts with their marks, filtered and searched", async () => {
    await insertExpert(db(), {
      user: { name: "Vera Verified" },
      expert: { isVerified: true, customUrl: "vera" },
    });
    await insertExpert(db(), { user: { name: "Una Unverified" }, expert: { isVerified: false } });
    await insertExpert(db(), { user: { name: "🚀Rocket Launcher" }, expert: { profileImage: null } });
    const all = await (await get("/admin/experts", adminCookie)).text();
    // The letter in place of a photo is a whole character, never half an emoji (U+FFFD once sent).
    expect(all).toMatch(/admin-expert__avatar--empty[^>]*>🚀</);
    expect(all).not.toContain("\uFFFD");
    expect(all).toContain("Vera Verified");
    expect(all).toContain("Una Unverified");
    expect(all).toContain("Verified Expert");
    const unverified = await (await get("/admin/experts?filter=unverified", adminCookie)).text();
    expect(unverified).toContain("Una Unverified");
    expect(unverified).not.toContain("Vera Verified");
    // A page past the last (a search with no match has one page): back to it, the search kept.
    const past = await get("/admin/experts?filter=unverified&q=no-such-expert-zz&page=3", adminCookie);
    expect(past.status).toBe(302);
    expect(past.headers.get("Location")).toBe("/admin/experts?filter=unverified&q=no-such-expert-zz");
    const searched = await (await get("/admin/experts?q=vera", adminCookie)).text();
    expect(searched).toContain("Vera Verified");
    expect(searched).not.toContain("Una Unverified");
  });

  it("finds a name by any case of its non-ASCII letters", async () => {
    await insertExpert(db(), { user: { name: "Émilie Øster" } });
    for (const term of ["Émilie", "émilie", "ÉMILIE", "Øster", "øster", "émilie øster"]) {
      const html = await (await get(`/admin/experts?q=${encodeURIComponent(term)}`, adminCookie)).text();
      expect(html, term).toContain("Émilie Øster");
      expect(html, term).not.toContain("Una Unverified");
    }
  });

  it("searches by a long term, and takes % and _ literally", async () => {
    await insertExpert(db(), {
      user: { name: "Bartholomew Fitzgerald-Montgomery", username: "bart_fm" },
      expert: { title: "Senior International Tax Planning and Cross-Border Compliance Consultant" },
    });
    await insertExpert(db(), { user: { name: "Bart Other", username: "bartxfm" } });
    // Over D1's 50-byte LIKE limit, as a pasted title is.
    const byTitle = await get(
      `/admin/experts?q=${encodeURIComponent("international tax planning and cross-border compliance")}`,
      adminCookie,
    );
    expect(byTitle.status).toBe(200);
    expect(await byTitle.text()).toContain("Bartholomew Fitzgerald-Montgomery");
    const noMatch = await get(`/admin/experts?q=${encodeURIComponent("é".repeat(40))}`, adminCookie);
    expect(noMatch.status).toBe(200);
    expect(await noMatch.text()).toContain("No experts found");
    // "_" is a character here, not LIKE's any-character.
    const underscore = await (await get("/admin/experts?q=bart_", adminCookie)).text();
    expect(underscore).toContain("Bartholomew Fitzgerald-Montgomery");
    expect(underscore).not.toContain("Bart Other");
    // A long search is cut by character, never through an emoji.
    const cut = await (
      await get(`/admin/experts?q=${encodeURIComponent(`${"a".repeat(99)}😀b`)}`, adminCookie)
    ).text();
    expect(cut).not.toContain("\uFFFD");
    expect(cut).toContain(`${"a".repeat(99)}😀`);
    // "%" is not LIKE's anything either.
    expect(await (await get("/admin/experts?q=%25", adminCookie)).text()).toContain("No experts found");
  });

  it("verifies an expert, notifies them once and refreshes their public read model; unverify removes the mark", async () => {
    const { user, expert } = await insertExpert(db(), { expert: { customUrl: "to-verify" } });
    await env.CACHE.put(cacheKeys.expertProfile(expert.id), JSON.stringify({ value: { isVerified: false } }));
    await env.CACHE.put(cacheKeys.expertIdByCustomUrl("to-verify"), JSON.stringify({ value: expert.id }));
    await env.CACHE.put(cacheKeys.featuredExperts(), JSON.stringify({ value: [] }));

    const verify = await postForm(
      "/admin/experts",
      { intent: "verify", expertId: String(expert.id) },
      { cookie: adminCookie },
    );
    expect(verify.status).toBe(200);
    const verified = await expertRow(expert.id);
    expect(verified.isVerified).toBe(true);
    expect(verified.verifiedAt).toBeInstanceOf(Date);
    expect(await env.CACHE.get(cacheKeys.expertProfile(expert.id))).toBeNull();
    expect(await env.CACHE.get(cacheKeys.expertIdByCustomUrl("to-verify"))).toBeNull();
    expect(await env.CACHE.get(cacheKeys.featuredExperts())).toBeNull();

    await postForm(
      "/admin/experts",
      { intent: "unverify", expertId: String(expert.id) },
      { cookie: adminCookie },
    );
    expect(await expertRow(expert.id)).toMatchObject({ isVerified: false, verifiedAt: null });
    await postForm(
      "/admin/experts",
      { intent: "verify", expertId: String(expert.id) },
      { cookie: adminCookie },
    );
    const sent = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, user.id), eq(notifications.kind, "expert_verified")));
    expect(sent).toHaveLength(1);
  });

  it("keeps the first verification time when an expert is verified again", async () => {
    const { expert } = await insertExpert(db(), { expert: { isVerified: false } });
    const verify = () =>
      postForm("/admin/experts", { intent: "verify", expertId: String(expert.id) }, { cookie: adminCookie });
    expect((await verify()).status).toBe(200);
    const firstVerified = new Date("2026-01-02T03:04:05Z");
    await db().update(experts).set({ verifiedAt: firstVerified }).where(eq(experts.id, expert.id));
    // A second click, or a second admin at the same time, changes nothing.
    expect((await verify()).status).toBe(200);
    expect(await expertRow(expert.id)).toMatchObject({ isVerified: true, verifiedAt: firstVerified });
  });

  it("tells no one anything when a stale tab verifies an expert verified long ago", async () => {
    // Verified before notifications existed (as the demo data's experts are): no notice on record.
    const { user, expert } = await insertExpert(db(), {
      expert: { isVerified: true, verifiedAt: new Date("2025-06-01T00:00:00Z") },
    });
    const response = await postForm(
      "/admin/experts",
      { intent: "verify", expertId: String(expert.id) },
      { cookie: adminCookie },
    );
    expect(response.status).toBe(200);
    const sent = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, user.id), eq(notifications.kind, "expert_verified")));
    expect(sent).toEqual([]);
  });

  it("features and unfeatures an expert (top expert), refreshing the featured list", async () => {
    const { expert } = await insertExpert(db(), { expert: { isVerified: true } });
    await env.CACHE.put(cacheKeys.featuredExperts(), JSON.stringify({ value: [] }));
    const feature = await postForm(
      "/admin/experts",
      { intent: "feature", expertId: String(expert.id) },
      { cookie: adminCookie },
    );
    expect(feature.status).toBe(200);
    expect((await expertRow(expert.id)).isTopExpert).toBe(true);
    expect(await env.CACHE.get(cacheKeys.featuredExperts())).toBeNull();
    await postForm(
      "/admin/experts",
      { intent: "unfeature", expertId: String(expert.id) },
      { cookie: adminCookie },
    );
    expect((await expertRow(expert.id)).isTopExpert).toBe(false);
  });

  it("features verified experts only, and takes an expert off the featured list with the mark", async () => {
    const { expert, user } = await insertExpert(db(), { expert: { isVerified: true } });
    const act = (intent: string) => adminAction("/admin/experts", { intent, expertId: String(expert.id) });
    expect((await act("feature")).status).toBe(200);
    expect(await expertRow(expert.id)).toMatchObject({ isVerified: true, isTopExpert: true });
    await env.CACHE.put(cacheKeys.featuredExperts(), JSON.stringify({ value: [] }));
    expect((await act("unverify")).status).toBe(200);
    expect(await expertRow(expert.id)).toMatchObject({ isVerified: false, isTopExpert: false });
    expect(await env.CACHE.get(cacheKeys.featuredExperts())).toBeNull();
    const refused = await act("feature");
    expect(refused.status).toBe(409);
    expect(refused.body).toContain("Only a verified expert can be featured.");
    expect((await expertRow(expert.id)).isTopExpert).toBe(false);
    // The page offers no Feature button for an unverified expert.
    const page = await (await get(`/admin/experts?q=${user.username}`, adminCookie)).text();
    expect(page).toContain(`aria-label="Verify ${user.name}"`);
    expect(page).not.toContain(`aria-label="Feature ${user.name}"`);
  });

  it("takes experts featured before that rule, and unverified, off the list (migration 0004)", async () => {
    const { expert: unverified } = await insertExpert(db(), {
      expert: { isVerified: false, isTopExpert: true },
    });
    const { expert: verified } = await insertExpert(db(), {
      expert: { isVerified: true, isTopExpert: true },
    });
    const migration = env.TEST_MIGRATIONS.find((candidate) => candidate.name.startsWith("0004_"));
    expect(migration).toBeDefined();
    for (const query of migration!.queries) await env.DB.prepare(query).run();
    expect((await expertRow(unverified.id)).isTopExpert).toBe(false);
    expect((await expertRow(verified.id)).isTopExpert).toBe(true);
  });

  it("refuses the verify action from a non-admin with 403, changing nothing", async () => {
    const { expert } = await insertExpert(db());
    const expertUser = await insertExpert(db(), { user: { password: "expert-pass-1" } });
    await insertAccount("plain-client", "client-pass-1");
    const cookies = {
      expert: await signIn(expertUser.user.username, "expert-pass-1"),
      client: await signIn("plain-client", "client-pass-1"),
    };
    for (const [who, cookie] of Object.entries(cookies)) {
      for (const intent of ["verify", "feature"]) {
        const response = await postForm(
          "/admin/experts",
          { intent, expertId: String(expert.id) },
          { cookie },
        );
        expect(response.status, `${who} ${intent}`).toBe(403);
      }
    }
    const signedOut = await postForm("/admin/experts", { intent: "verify", expertId: String(expert.id) });
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toMatch(/^\/admin\/login/);
    expect(await expertRow(expert.id)).toMatchObject({ isVerified: false, isTopExpert: false });
  });

  it("answers 400 to an unknown action and 404 to an unknown expert", async () => {
    expect(
      (await postForm("/admin/experts", { intent: "delete", expertId: "1" }, { cookie: adminCookie })).status,
    ).toBe(400);
    expect(
      (await postForm("/admin/experts", { intent: "verify", expertId: "999999" }, { cookie: adminCookie }))
        .status,
    ).toBe(404);
    // Each refusal says what was wrong with it.
    const badId = await adminAction("/admin/experts", { intent: "verify", expertId: "abc" });
    expect(badId.status).toBe(400);
    expect(badId.body).toContain("Unknown expert.");
    expect((await adminAction("/admin/experts", { intent: "delete", expertId: "1" })).body).toContain(
      "Unknown action.",
    );
    // Number() reads these as 10 and 1: the action must not pick an expert the form did not name.
    const { expert } = await insertExpert(db());
    for (const written of [`${expert.id / 10}e1`, `0x${expert.id.toString(16)}`]) {
      const response = await postForm(
        "/admin/experts",
        { intent: "feature", expertId: written },
        { cookie: adminCookie },
      );
      expect(response.status, written).toBe(400);
    }
    expect((await expertRow(expert.id)).isTopExpert).toBe(false);
    const notAForm = await postRaw("/admin/experts", "{}", {
      cookie: adminCookie,
      contentType: "application/json",
    });
    expect(notAForm.status).toBe(400);
  });

  it("sends a signed-in non-admin away from the page to /forbidden", async () => {
    await insertAccount("curious-client", "client-pass-1");
    const cookie = await signIn("curious-client", "client-pass-1");
    for (const path of ["/admin/experts", "/admin/messages"]) {
      const response = await get(path, cookie);
      expect(response.status, path).toBe(302);
      expect(response.headers.get("Location"), path).toBe("/forbidden");
    }
  });
});

describe("admin: contact messages", () => {
  it("lists the messages sent from the contact page, newest first, and marks them handled", async () => {
    await postForm("/contact", {
      name: "Older Sender",
      email: "older@example.com",
      subject: "First question",
      message: "Hello there.",
    });
    await postForm("/contact", {
      name: "Newer Sender",
      email: "newer@example.com",
      subject: "Second question",
      message: "Hi again.",
    });
    const html = await (await get("/admin/messages", adminCookie)).text();
    expect(html).toContain("First question");
    expect(html).toContain("Second question");
    expect(html.indexOf("Second question")).toBeLessThan(html.indexOf("First question"));
    // Each message's buttons say which message they act on (a screen reader lists them out of context).
    expect(html).toContain('aria-label="Reply by email to Newer Sender"');
    expect(html).toContain('aria-label="Mark handled: Second question"');

    const [message] = await db()
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.subject, "First question"));
    const done = await postForm(
      "/admin/messages",
      { intent: "handled", messageId: String(message.id) },
      { cookie: adminCookie },
    );
    expect(done.status).toBe(200);
    const open = await (await get("/admin/messages", adminCookie)).text();
    expect(open).not.toContain("First question");
    expect(await (await get("/admin/messages?filter=handled", adminCookie)).text()).toContain(
      "First question",
    );
  });

  it("keeps a subject sent with line breaks on one line, and out of the Reply link's headers", async () => {
    const sent = await postForm("/contact", {
      name: "Crafty\r\nSender",
      email: "crafty@example.com",
      subject: "Refund please\r\nCc: attacker@evil.example\r\n\r\nInjected body",
      message: "Hello there.",
    });
    expect(sent.status).toBeLessThan(400);
    const [stored] = await db()
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.email, "crafty@example.com"));
    expect(stored).toMatchObject({
      name: "Crafty Sender",
      subject: "Refund please Cc: attacker@evil.example Injected body",
    });
    // A message stored before subjects were cleaned still gives a one-line Reply subject.
    await db().insert(contactMessages).values({
      name: "Old Sender",
      email: "old-crafty@example.com",
      subject: "Old\r\nBcc: someone@evil.example",
      message: "Stored long ago.",
    });
    const html = await (await get("/admin/messages", adminCookie)).text();
    const replies = [...html.matchAll(/href="(mailto:[^"]*crafty[^"]*)"/g)].map((match) => match[1]);
    expect(replies).toHaveLength(2);
    for (const reply of replies) expect(reply).not.toMatch(/%0[AD]/i);
    expect(replies).toContain(
      "mailto:old-crafty%40example.com?subject=Re%3A%20Old%20Bcc%3A%20someone%40evil.example",
    );
  });

  it("sends a page past the last (its messages all handled) to the last page, keeping the filter", async () => {
    const pageSize = CONTACT_PAGE_SIZE;
    const open = async () =>
      (
        await env.DB.prepare("SELECT count(*) AS n FROM contact_messages WHERE handled_at IS NULL").first<{
          n: number;
        }>()
      )?.n ?? 0;
    // Enough open messages for a second page, then that page handled.
    await db()
      .insert(contactMessages)
      .values(
        Array.from({ length: pageSize + 2 - Math.min(await open(), pageSize + 2) }, (_, index) => ({
          name: `Pager ${index}`,
          email: `pager-${index}@example.com`,
          subject: `Paged question ${index}`,
          message: "One of many.",
        })),
      );
    const last = Math.ceil((await open()) / pageSize);
    expect(last).toBeGreaterThan(1);
    const onLastPage = await (await get(`/admin/messages?page=${last}`, adminCookie)).text();
    const ids = [...onLastPage.matchAll(/name="messageId" value="(\d+)"/g)].map((match) => match[1]);
    expect(ids.length).toBeGreaterThan(0);
    for (const messageId of ids) {
      const done = await postForm(
        "/admin/messages",
        { intent: "handled", messageId },
        { cookie: adminCookie },
      );
      expect(done.status).toBe(200);
    }
    const emptied = await get(`/admin/messages?page=${last}`, adminCookie);
    expect(emptied.status).toBe(302);
    const back = last - 1 === 1 ? "/admin/messages" : `/admin/messages?page=${last - 1}`;
    expect(emptied.headers.get("Location")).toBe(back);
    expect(await (await get(back, adminCookie)).text()).toContain("Mark handled");

    const handled = await get("/admin/messages?filter=handled&page=9999", adminCookie);
    expect(handled.status).toBe(302);
    expect(handled.headers.get("Location")).toMatch(/^\/admin\/messages\?filter=handled(&page=\d+)?$/);
    // Within the list: no redirect.
    expect((await get(`/admin/messages?page=${last - 1}`, adminCookie)).status).toBe(200);
  });

  it("sends a question list's page past the last to the last page, keeping the filter", async () => {
    // The filter's questions fit one page here (the suite's questions are far fewer than 50 a filter).
    const past = await get("/admin?filter=answered&page=999", adminCookie);
    expect(past.status).toBe(302);
    expect(past.headers.get("Location")).toMatch(/^\/admin\?filter=answered(&page=\d+)?$/);
    expect((await get("/admin?filter=answered", adminCookie)).status).toBe(200);
  });

  it("says why a change was refused: no such message, or not a message id", async () => {
    const gone = await adminAction("/admin/messages", { intent: "handled", messageId: "999999" });
    expect(gone.status).toBe(404);
    expect(gone.body).toContain("That message no longer exists.");
    const malformed = await adminAction("/admin/messages", { intent: "handled", messageId: "abc" });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toContain("Unknown message.");
  });

  it("refuses a non-admin with 403", async () => {
    await insertAccount("nosy-client", "client-pass-1");
    const cookie = await signIn("nosy-client", "client-pass-1");
    const [message] = await db().select().from(contactMessages).limit(1);
    const response = await postForm(
      "/admin/messages",
      { intent: "handled", messageId: String(message?.id ?? 1) },
      { cookie },
    );
    expect(response.status).toBe(403);
  });
});
