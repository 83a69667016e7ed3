import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookings, experts, payments, sessions, users } from "~/db/schema.server";
import { isCustomUrlTaken } from "~/models/experts.server";
import { insertQuestion } from "../factories";
import { BASE, db, get, insertAccount, postForm, signIn } from "./support/accounts";
import { makeSubscriber } from "./support/questions";

const api = (path: string, method: string, cookie: string, body?: unknown) =>
  SELF.fetch(`${BASE}${path}`, {
    method,
    headers: { Cookie: cookie, Origin: BASE, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });

describe("account settings", () => {
  it("offers account deletion without JavaScript, behind the same question the dialog asks", async () => {
    await insertAccount("no-script", "no-script-pass");
    const cookie = await signIn("no-script", "no-script-pass");
    const markup = (await (await get("/dashboard/settings", cookie)).text()).split("__remixContext")[0];
    expect(markup).toMatch(
      /<details class="confirm-disclosure"><summary[^>]*>Delete Account<\/summary><div[^>]*><p>This cannot be undone\..*?<\/p><form method="post" action="\/dashboard\/settings"><input type="hidden" name="intent" value="delete"\/><button type="submit"[^>]*>Delete<\/button>/,
    );
  });

  it("says before deletion what it does to the person's questions and sessions, as a client or an expert", async () => {
    await insertAccount("closing-client", "closing-pass-1");
    const client = await signIn("closing-client", "closing-pass-1");
    const clientPage = await (await get("/dashboard/settings", client)).text();
    expect(clientPage).toContain("Questions still waiting for an answer are withdrawn");
    expect(clientPage).toContain("Sessions more than 24 hours away are cancelled and refunded in full");
    expect(clientPage).not.toContain("Your public profile is removed");

    await insertAccount("closing-expert", "closing-pass-2", { role: "expert" });
    const expert = await signIn("closing-expert", "closing-pass-2");
    for (const path of ["/expert/account", "/dashboard/settings"]) {
      const page = await (await get(path, expert)).text();
      expect(page, path).toContain(
        "Your public profile is removed. Questions waiting for your answer are declined, so those clients are not charged",
      );
    }
  });

  it("updates the signed-in user's name and e-mail, ignoring any user id in the form", async () => {
    const { userId } = await insertAccount("settler", "settle-pass");
    const { userId: otherId } = await insertAccount("bystander", "bystand-pass");
    const cookie = await signIn("settler", "settle-pass");
    const response = await postForm(
      "/dashboard/settings",
      {
        intent: "profile",
        name: "New Name",
        email: "new@example.com",
        userId: String(otherId),
        id: String(otherId),
      },
      { cookie },
    );
    expect(response.status).toBe(200);
    // Without JavaScript (the form posted as a page) the page itself says it worked.
    expect((await response.text()).split("__remixContext")[0]).toMatch(/role="status"[^>]*>Updated!</);
    const [me] = await db().select().from(users).where(eq(users.id, userId));
    const [other] = await db().select().from(users).where(eq(users.id, otherId));
    expect(me).toMatchObject({ name: "New Name", email: "new@example.com" });
    expect(other).toMatchObject({ name: "bystander Name", email: "bystander@example.com" });
  });

  it("refuses an invalid profile with SPEC.md's messages", async () => {
    await insertAccount("strict", "strict-pass");
    const cookie = await signIn("strict", "strict-pass");
    const response = await postForm(
      "/dashboard/settings",
      { intent: "profile", name: "", email: "x" },
      { cookie },
    );
    expect(response.status).toBe(400);
    // In the page itself, not only in its data: a browser without JavaScript shows the markup.
    const markup = (await response.text()).split("__remixContext")[0];
    expect(markup).toContain("Name is required");
    expect(markup).toContain("Invalid email address");
    expect(markup).toMatch(/name="email"[^>]*value="x"|value="x"[^>]*name="email"/);

    await insertAccount("strict-expert", "strict-pass", { role: "expert", withExpertProfile: true });
    const wrongPassword = await postForm(
      "/expert/account",
      {
        intent: "password",
        currentPassword: "nope",
        newPassword: "new-pass-123",
        confirmPassword: "new-pass-123",
      },
      { cookie: await signIn("strict-expert", "strict-pass") },
    );
    expect(wrongPassword.status).toBe(400);
    expect((await wrongPassword.text()).split("__remixContext")[0]).toContain(
      "Current password is incorrect",
    );
  });

  it("changes the password only with the right current one, and ends every other session", async () => {
    await insertAccount("changer", "old-password-1");
    const laptop = await signIn("changer", "old-password-1");
    const phone = await signIn("changer", "old-password-1");

    const wrong = await postForm(
      "/dashboard/settings",
      {
        intent: "password",
        currentPassword: "not-it",
        newPassword: "new-password-1",
        confirmPassword: "new-password-1",
      },
      { cookie: laptop },
    );
    expect(wrong.status).toBe(400);
    const wrongPage = await wrong.text();
    expect(wrongPage).toContain("Current password is incorrect");
    // The typed passwords never come back (the page's data would refill the fields with them).
    expect(wrongPage).not.toContain("not-it");
    expect(wrongPage).not.toContain("new-password-1");

    const mismatch = await postForm(
      "/dashboard/settings",
      {
        intent: "password",
        currentPassword: "old-password-1",
        newPassword: "new-password-1",
        confirmPassword: "other-password",
      },
      { cookie: laptop },
    );
    const mismatchPage = await mismatch.text();
    expect(mismatchPage).toContain("Passwords do not match");
    expect(mismatchPage).not.toContain("old-password-1");
    expect(mismatchPage).not.toContain("other-password");

    const short = await postForm(
      "/dashboard/settings",
      {
        intent: "password",
        currentPassword: "old-password-1",
        newPassword: "short",
        confirmPassword: "short",
      },
      { cookie: laptop },
    );
    expect(await short.text()).toContain("New password must be at least 8 characters");

    const changed = await postForm(
      "/dashboard/settings",
      {
        intent: "password",
        currentPassword: "old-password-1",
        newPassword: "new-password-1",
        confirmPassword: "new-password-1",
      },
      { cookie: laptop },
    );
    expect(changed.status).toBe(200);
    const changedPage = await changed.text();
    expect(changedPage).not.toContain("new-password-1");
    // Without JavaScript (the form posted as a page) the page itself says it worked.
    expect(changedPage.split("__remixContext")[0]).toMatch(
      /role="status"[^>]*>Password changed\. Your other sessions have been signed out\.</,
    );
    expect((await get("/dashboard", laptop)).status).toBe(200);
    expect((await get("/dashboard", phone)).status).toBe(302);
    await expect(signIn("changer", "old-password-1")).rejects.toThrow();
    await expect(signIn("changer", "new-password-1")).resolves.toMatch(/^__session=/);
  });

  it("stops guessing the current password on the form after ten wrong ones (429), changing nothing", async () => {
    await insertAccount("guessed", "right-password-1");
    const cookie = await signIn("guessed", "right-password-1");
    const hashOf = async () =>
      (await db().select({ hash: users.passwordHash }).from(users).where(eq(users.username, "guessed")))[0]
        .hash;
    const before = await hashOf();
    const attempt = (currentPassword: string) =>
      postForm(
        "/dashboard/settings",
        { intent: "password", currentPassword, newPassword: "taken-over-1", confirmPassword: "taken-over-1" },
        { cookie },
      );
    for (let guess = 0; guess < 10; guess++) expect((await attempt(`guess-${guess}`)).status).toBe(400);
    const refused = await attempt("right-password-1");
    expect(refused.status).toBe(429);
    const page = await refused.text();
    expect(page).toContain("Too many password attempts. Please wait 15 minutes and try again.");
    expect(page).not.toContain("taken-over-1");
    // Even the right password is refused until the lock ends: nothing changed.
    expect(await hashOf()).toBe(before);
  }, 60_000);

  it("deletes the account: sessions end, personal data goes, payment records stay", async () => {
    const { userId } = await insertAccount("goner", "gone-pass");
    const { expertId } = await insertAccount("hostexpert", "host-pass", { role: "expert" });
    const [booking] = await db()
      .insert(bookings)
      .values({
        userId,
        expertId: expertId!,
        date: "2026-01-05",
        startTime: "10:00",
        endTime: "11:00",
        startsAt: new Date("2026-01-05T15:00:00Z"),
        endsAt: new Date("2026-01-05T16:00:00Z"),
        status: "completed",
        amount: 5000,
        name: "Goner Person",
        email: "goner@example.com",
        notes: "private notes",
      })
      .returning();
    await db()
      .insert(payments)
      .values({ kind: "booking", status: "captured", amount: 5000, userId, bookingId: booking.id });
    const cookie = await signIn("goner", "gone-pass");

    const response = await postForm("/dashboard/settings", { intent: "delete" }, { cookie });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");

    expect((await get("/dashboard", cookie)).status).toBe(302);
    expect(await db().select().from(sessions).where(eq(sessions.userId, userId))).toEqual([]);
    const [gone] = await db().select().from(users).where(eq(users.id, userId));
    expect(gone.deletedAt).not.toBeNull();
    expect(gone.email).not.toContain("goner");
    expect(gone.name).toBeNull();
    const [keptBooking] = await db().select().from(bookings).where(eq(bookings.id, booking.id));
    expect(keptBooking).toMatchObject({
      status: "completed",
      amount: 5000,
      name: null,
      email: null,
      notes: null,
    });
    const ledger = await db().select().from(payments).where(eq(payments.bookingId, booking.id));
    expect(ledger).toHaveLength(1);
    await expect(signIn("goner", "gone-pass")).rejects.toThrow();
  });

  it("keeps a client's account while a session they can no longer cancel is ahead or under way", async () => {
    const { userId } = await insertAccount("soon-booked", "soon-pass-1");
    const { expertId } = await insertAccount("soon-host", "host-pass-1", { role: "expert" });
    const HOUR = 60 * 60 * 1000;
    const startsAt = new Date(Date.now() + 3 * HOUR);
    const [booking] = await db()
      .insert(bookings)
      .values({
        userId,
        expertId: expertId!,
        date: startsAt.toISOString().slice(0, 10),
        startTime: "10:00",
        endTime: "11:00",
        startsAt,
        endsAt: new Date(startsAt.getTime() + HOUR),
        status: "confirmed",
        amount: 5000,
        name: "Soon Booked",
        email: "soon@example.com",
      })
      .returning();
    const cookie = await signIn("soon-booked", "soon-pass-1");
    const refused = await api(`/api/users/${userId}`, "DELETE", cookie);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("You have a session in the next 24 hours");
    const [kept] = await db().select().from(users).where(eq(users.id, userId));
    expect(kept.deletedAt).toBeNull();
    expect((await db().select().from(bookings).where(eq(bookings.id, booking.id)))[0]).toMatchObject({
      status: "confirmed",
      email: "soon@example.com",
    });

    // Once it has ended, the account goes.
    await db()
      .update(bookings)
      .set({ startsAt: new Date(Date.now() - 2 * HOUR), endsAt: new Date(Date.now() - HOUR) })
      .where(eq(bookings.id, booking.id));
    expect((await api(`/api/users/${userId}`, "DELETE", cookie)).status).toBe(200);
  });

  it("takes a deleted client's questions off the experts' public profiles", async () => {
    const { userId } = await insertAccount("asked-publicly", "asked-pass-1");
    const { expertId } = await insertAccount("answered-publicly", "answer-pass-1", { role: "expert" });
    await insertQuestion(db(), {
      userId,
      expertId: expertId!,
      question: "PUBLIC-Q: my company's cap table, in detail",
      status: "answered",
      answer: "Here is what to do.",
      answeredAt: new Date(),
      showOnProfile: true,
    });
    const publicQuestions = async () => (await get(`/api/experts/${expertId}/questions`)).text();
    expect(await publicQuestions()).toContain("PUBLIC-Q");
    const cookie = await signIn("asked-publicly", "asked-pass-1");
    expect((await postForm("/dashboard/settings", { intent: "delete" }, { cookie })).status).toBe(302);
    expect(await publicQuestions()).not.toContain("PUBLIC-Q");
    expect(await (await get(`/expert/${expertId}`)).text()).not.toContain("PUBLIC-Q");
  });

  it("ends a test-mode subscription with the account (nothing at Stripe to end)", async () => {
    const { userId } = await insertAccount("lapsing", "lapse-pass");
    await makeSubscriber(userId);
    const cookie = await signIn("lapsing", "lapse-pass");
    const response = await postForm("/dashboard/settings", { intent: "delete" }, { cookie });
    expect(response.status).toBe(302);
    const [gone] = await db().select().from(users).where(eq(users.id, userId));
    expect(gone.deletedAt).not.toBeNull();
    expect(gone).toMatchObject({ subscriptionStatus: "canceled", subscriptionCancelAtPeriodEnd: false });
    expect(gone.subscriptionEndDate!.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("hides a deleted expert's profile but keeps their bookings", async () => {
    const { expertId } = await insertAccount("retiring", "retire-pass", { role: "expert" });
    await db().update(experts).set({ customUrl: "retiring-url" }).where(eq(experts.id, expertId!));
    expect((await get("/retiring-url")).status).toBe(200);
    const cookie = await signIn("retiring", "retire-pass");
    const response = await postForm("/expert/account", { intent: "delete" }, { cookie });
    expect(response.status).toBe(302);
    const [expert] = await db().select().from(experts).where(eq(experts.id, expertId!));
    expect(expert.deletedAt).not.toBeNull();
    expect(expert.isAvailable).toBe(false);
    expect((await get("/retiring-url")).status).toBe(404);
    // The links they shared cannot be claimed by someone else.
    expect(await isCustomUrlTaken(db(), "Retiring-URL")).toBe(true);
    const { expertId: newcomer } = await insertAccount("claimant", "claim-pass-1", { role: "expert" });
    await expect(
      db().update(experts).set({ customUrl: "retiring-url" }).where(eq(experts.id, newcomer!)),
    ).rejects.toThrow();
  });

  it("removes a deleted expert's pictures from storage, keeping one another profile still shows", async () => {
    const { expertId } = await insertAccount("pictured", "picture-pass", { role: "expert" });
    const { expertId: otherId } = await insertAccount("same-logo", "logo-pass", { role: "expert" });
    const own = "/media/images/own-face.png";
    const shared = "/media/images/shared-logo.png";
    for (const url of [own, shared]) await env.MEDIA.put(url.replace(/^\/media\//, ""), "png bytes");
    await db()
      .update(experts)
      .set({ profileImage: own, headerImage: shared })
      .where(eq(experts.id, expertId!));
    await db().update(experts).set({ headerImage: shared }).where(eq(experts.id, otherId!));

    const cookie = await signIn("pictured", "picture-pass");
    expect((await postForm("/expert/account", { intent: "delete" }, { cookie })).status).toBe(302);
    expect(await env.MEDIA.head("images/own-face.png")).toBeNull();
    expect(await env.MEDIA.head("images/shared-logo.png")).not.toBeNull();
  });

  it("signs out of the expert portal back to /expert/login", async () => {
    await insertAccount("portalleaver", "portal-pass", { role: "expert" });
    const cookie = await signIn("portalleaver", "portal-pass");
    const response = await postForm("/expert/account", { intent: "logout" }, { cookie });
    expect(response.headers.get("Location")).toBe("/expert/login");
    expect((await get("/expert/dashboard", cookie)).headers.get("Location")).toMatch(/^\/expert\/login/);
  });
});

describe("another user's account through the API", () => {
  it("refuses to edit or delete someone else (403) and changes nothing", async () => {
    await insertAccount("attacker", "attack-pass");
    const { userId: victimId } = await insertAccount("victim", "victim-pass");
    const cookie = await signIn("attacker", "attack-pass");

    const patch = await api(`/api/users/${victimId}`, "PATCH", cookie, {
      name: "Pwned",
      email: "pwned@example.com",
    });
    expect(patch.status).toBe(403);
    expect(await patch.json()).toEqual({ error: "You can only change your own account" });
    const remove = await api(`/api/users/${victimId}`, "DELETE", cookie);
    expect(remove.status).toBe(403);

    const [victim] = await db().select().from(users).where(eq(users.id, victimId));
    expect(victim).toMatchObject({ name: "victim Name", email: "victim@example.com", deletedAt: null });
    await expect(signIn("victim", "victim-pass")).resolves.toMatch(/^__session=/);
  });

  it("lets a user edit their own account and answers 401 when signed out", async () => {
    const { userId } = await insertAccount("selfedit", "self-pass");
    const cookie = await signIn("selfedit", "self-pass");
    const own = await api(`/api/users/${userId}`, "PATCH", cookie, {
      name: "Self Edited",
      email: "self@example.com",
    });
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({ id: userId, name: "Self Edited", email: "self@example.com" });
    const invalid = await api(`/api/users/${userId}`, "PATCH", cookie, { name: "", email: "bad" });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { error: string }).error).toBe("Name is required");
    const signedOut = await api(`/api/users/${userId}`, "PATCH", "", { name: "X", email: "x@example.com" });
    expect(signedOut.status).toBe(401);
    const [row] = await db().select().from(users).where(eq(users.id, userId));
    expect(row.name).toBe("Self Edited");
  });

  it("reports the auth status", async () => {
    await insertAccount("statususer", "status-pass", { role: "expert" });
    const cookie = await signIn("statususer", "status-pass");
    const signedIn = (await (await get("/api/auth/status", cookie)).json()) as {
      authenticated: boolean;
      user: { username: string; expertProfile: { id: number } | null; passwordHash?: string };
    };
    expect(signedIn.authenticated).toBe(true);
    expect(signedIn.user.username).toBe("statususer");
    expect(signedIn.user.expertProfile?.id).toEqual(expect.any(Number));
    expect(JSON.stringify(signedIn)).not.toContain("pbkdf2");
    expect(await (await get("/api/auth/status")).json()).toEqual({ authenticated: false, user: null });
    expect(env.DEMO_MODE).toBe("true");
  });
});
